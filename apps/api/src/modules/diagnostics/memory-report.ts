import fs from 'node:fs';
import v8 from 'node:v8';

// Where this process's memory goes, by part: the V8 heap (by space), the embedded database's
// WebAssembly memory, the node binary's pages, and the rest (native allocations: compiled
// WebAssembly code, sockets, libuv). Read from process.memoryUsage(), V8's heap statistics and,
// on Linux, /proc/self/smaps, whose resident sizes add up to RSS.

const MB = 1024 * 1024;
export const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

export interface MemoryRegions {
  /** Resident pages of the node executable (code and read-only data; shared with other node processes). */
  nodeBinaryMb: number;
  /** Resident pages of the embedded database's WebAssembly memory (PGlite only). */
  databaseMb: number | null;
  /** Everything else that is anonymous memory: the V8 heap, compiled WebAssembly code, native buffers. */
  anonymousMb: number;
  /** Other mapped files (shared libraries, locale data). */
  filesMb: number;
}

export interface MemoryReport {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  heapSpaces: Array<{ space: string; usedMb: number; residentMb: number }>;
  regions: MemoryRegions | null;
}

/**
 * Sums /proc/self/smaps by kind. `wasmMemoryBytes` is the database's WebAssembly memory size: its
 * mapping is the anonymous one of exactly that size. Null where smaps does not exist (not Linux).
 */
export function memoryRegions(wasmMemoryBytes: number | null, smapsText = readSmaps()): MemoryRegions | null {
  if (smapsText === null) return null;
  const regions = { nodeBinary: 0, database: 0, anonymous: 0, files: 0 };
  for (const block of smapsText.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const head = block.slice(0, block.indexOf('\n'));
    const [range = '', , , , , ...rest] = head.split(/\s+/);
    const name = rest.join(' ');
    const rss = Number(/\nRss:\s+(\d+) kB/.exec(block)?.[1] ?? 0) * 1024;
    const [start = '0', end = '0'] = range.split('-');
    const size = parseInt(end, 16) - parseInt(start, 16);
    if (name === process.execPath || name.endsWith('/bin/node')) regions.nodeBinary += rss;
    else if (name.startsWith('/')) regions.files += rss;
    else if (wasmMemoryBytes !== null && !name && size === wasmMemoryBytes) regions.database += rss;
    else regions.anonymous += rss;
  }
  return {
    nodeBinaryMb: mb(regions.nodeBinary),
    databaseMb: wasmMemoryBytes === null ? null : mb(regions.database),
    anonymousMb: mb(regions.anonymous),
    filesMb: mb(regions.files),
  };
}

function readSmaps(): string | null {
  try {
    return fs.readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return null;
  }
}

export function memoryReport(wasmMemoryBytes: number | null): MemoryReport {
  const m = process.memoryUsage();
  return {
    rssMb: mb(m.rss),
    heapUsedMb: mb(m.heapUsed),
    heapTotalMb: mb(m.heapTotal),
    externalMb: mb(m.external),
    arrayBuffersMb: mb(m.arrayBuffers),
    heapSpaces: v8
      .getHeapSpaceStatistics()
      .filter((s) => s.physical_space_size > 0)
      .map((s) => ({ space: s.space_name, usedMb: mb(s.space_used_size), residentMb: mb(s.physical_space_size) })),
    regions: memoryRegions(wasmMemoryBytes),
  };
}
