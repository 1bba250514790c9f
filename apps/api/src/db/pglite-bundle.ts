import fs from 'node:fs';
import path from 'node:path';

// PGlite's file bundle (pglite.data, 6.2 MB: PostgreSQL's share and lib directories, ICU data) is read
// into one buffer at each open, and its in-memory file system keeps that buffer for the life of the
// instance. A server opening an existing data directory (or a test's migrated template) never reads
// 3.7 MB of it: what only initdb runs (the bootstrap catalog and SQL), the extension build files, the
// replication receiver and the conversions between UTF-8 and the East Asian character sets (PGlite's
// database and client are UTF-8). So such an open gets a zero-filled buffer of the bundle's size into
// which only the other files are copied: pages never written are never resident (decision 0161).
// initdb (pglite-init.mjs, a fresh in-memory database) keeps the whole bundle.

export interface BundleFile {
  name: string;
  start: number;
  end: number;
}

/** Files an open of an existing database never reads. */
export function onlyForInitdbOrUnused(name: string): boolean {
  return (
    /^\/pglite\/share\/postgresql\/(postgres\.bki|information_schema\.sql|system_(views|functions|constraints)\.sql|snowball_create\.sql|sql_features\.txt|[^/]+\.sample)$/.test(
      name,
    ) ||
    name.startsWith('/pglite/lib/postgresql/pgxs/') ||
    /^\/pglite\/lib\/postgresql\/(libpqwalreceiver|pgoutput|utf8_and_(big5|euc2004|euc_cn|euc_jp|euc_kr|euc_tw|gb18030|gbk|johab|sjis|sjis2004|uhc))\.so$/.test(
      name,
    )
  );
}

/** The byte ranges to copy: the files kept, adjacent ones merged. */
export function keptRanges(files: readonly BundleFile[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const f of [...files].sort((a, b) => a.start - b.start)) {
    if (onlyForInitdbOrUnused(f.name) || f.end <= f.start) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === f.start) last[1] = f.end;
    else ranges.push([f.start, f.end]);
  }
  return ranges;
}

/**
 * The bundle's file list, from PGlite's Emscripten loader (`{filename:"…",start:…,end:…}` entries
 * before `remote_package_size:`), or null when it cannot be read or does not add up to `size`.
 */
export function parseBundleFiles(loaderText: string, size: number): BundleFile[] | null {
  const files = [...loaderText.matchAll(/\{filename:"([^"]+)",start:(\d+),end:(\d+)\}/g)].map((m) => ({ name: m[1]!, start: Number(m[2]), end: Number(m[3]) }));
  if (!files.length || !new RegExp(`remote_package_size:${size}\\b`).test(loaderText)) return null;
  return files.reduce((n, f) => n + (f.end - f.start), 0) === size ? files : null;
}

/** What PGlite reads the bundle through: only `arrayBuffer()` is called. */
class RunningServerBundle extends Blob {
  constructor(
    private readonly file: Blob,
    private readonly ranges: ReadonlyArray<readonly [number, number]>,
  ) {
    super([]);
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    // Zero-filled and untouched until written (a fresh mapping): only the copied files become resident.
    const out = new Uint8Array(this.file.size);
    for (const [start, end] of this.ranges) out.set(new Uint8Array(await this.file.slice(start, end).arrayBuffer()), start);
    return out.buffer;
  }
}

/**
 * The bundle for opening an existing database: `file` with only the files such an open reads, or
 * `file` itself when PGlite's loader cannot be read (another PGlite version's layout).
 */
export function runningServerBundle(file: Blob, pgliteDir: string): Blob {
  for (const name of fs.readdirSync(pgliteDir).filter((n) => n.endsWith('.js'))) {
    const text = fs.readFileSync(path.join(pgliteDir, name), 'utf8');
    if (!text.includes('remote_package_size:')) continue;
    const files = parseBundleFiles(text, file.size);
    return files ? new RunningServerBundle(file, keptRanges(files)) : file;
  }
  return file;
}
