import { PGlite, type Results } from '@electric-sql/pglite';
import type { DbOrTx } from './client.ts';
import { RemotePGlite } from './pglite-remote.ts';
import { runBoundHere, type BoundRows } from './pglite-bind.ts';

/**
 * A PGlite-only read path for large results: `COPY (select …) TO '/dev/blob' WITH (FORMAT binary)`
 * hands back every value in its binary send form, so the WebAssembly engine formats no text and
 * the JS side parses no text (docs/decisions/0075). node-postgres has no such channel here; callers
 * keep their ordinary query for PostgreSQL.
 */

/** The embedded database's calls the PGlite-only paths make, in this thread or in its worker thread. */
export interface EmbeddedPg {
  query<T>(sql: string, params?: unknown[]): Promise<Results<T> & { bytes?: Uint8Array }>;
  exec(sql: string): Promise<Array<Results<unknown>>>;
}

/** The embedded PGlite behind a Drizzle database, or null on node-postgres (or inside a transaction). */
export function pgliteOf(db: DbOrTx): EmbeddedPg | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof PGlite || client instanceof RemotePGlite ? client : null;
}

/** Runs a BindWriter message (pglite-bind.ts) on the embedded database, in its thread or in this one. */
export function runBound(client: EmbeddedPg, message: Uint8Array): Promise<BoundRows> {
  return client instanceof RemotePGlite ? client.bound(message) : runBoundHere(client as PGlite, message);
}

/**
 * A SQL string literal. COPY takes no bind parameters, so values go into the text: quotes are
 * doubled, and PGlite runs with standard_conforming_strings on (a backslash is an ordinary
 * character), so nothing can end the literal early.
 */
export function sqlLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('a SQL literal cannot contain NUL');
  return `'${value.replaceAll("'", "''")}'`;
}

/** Runs `select` through binary COPY and returns the COPY stream's bytes. */
export async function copyBinary(client: EmbeddedPg, select: string): Promise<Uint8Array> {
  const result = await client.query(`copy (${select}) to '/dev/blob' with (format binary)`);
  // From a worker thread the bytes come transferred, not as a Blob.
  if (result.bytes) return result.bytes;
  if (!result.blob) throw new Error('PGlite returned no blob for COPY TO /dev/blob');
  return new Uint8Array(await result.blob.arrayBuffer());
}

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]; // PGCOPY\n\377\r\n\0

/**
 * Walks a binary COPY stream (https://www.postgresql.org/docs/current/sql-copy.html, "Binary
 * Format"): an 11-byte signature, int32 flags, int32 extension length and extension; then per row
 * an int16 field count (-1 ends the data) and per field an int32 length (-1 for NULL) and the bytes.
 * All integers are big-endian, which DataView reads by default.
 */
export class BinaryCopyReader {
  readonly view: DataView;
  /** Offset of the current field's bytes (after `field()`). */
  offset = 0;
  private pos: number;

  constructor(bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength < 19 || SIGNATURE.some((b, i) => bytes[i] !== b)) throw new Error('not a binary COPY stream');
    this.pos = 15 + 4 + this.view.getInt32(15);
  }

  /** Starts the next row: its field count, or -1 at the end of the data. */
  row(): number {
    if (this.pos + 2 > this.view.byteLength) return -1;
    const fields = this.view.getInt16(this.pos);
    this.pos += 2;
    return fields;
  }

  /** Steps to the next field of the row: its length in bytes (`offset` points at them), -1 for NULL. */
  field(): number {
    const length = this.view.getInt32(this.pos);
    this.offset = this.pos + 4;
    this.pos = this.offset + (length > 0 ? length : 0);
    return length;
  }
}

/** Microseconds between 2000-01-01 (PostgreSQL's timestamp origin) and the Unix epoch. */
const PG_EPOCH_US = 946_684_800_000_000;

/**
 * Epoch milliseconds of a binary timestamptz (int64 microseconds since 2000-01-01) computed exactly
 * as `(date_part('epoch', t) * 1000)::int8` does: the float8 epoch in seconds times 1000, rounded
 * half to even (`rint`), so sub-millisecond times round as they do on PostgreSQL.
 */
export function timestamptzMs(view: DataView, offset: number): number {
  const us = view.getInt32(offset) * 4_294_967_296 + view.getUint32(offset + 4);
  const x = ((us + PG_EPOCH_US) / 1_000_000) * 1000;
  const r = Math.round(x);
  // Math.round rounds .5 up; rint rounds it to the even neighbour.
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * A float4 as the double its PostgreSQL text form parses to (`95.12`, not 95.12000274658203):
 * float4out writes the shortest decimal that reads back as the same float4, and the text path
 * parsed that. The shortest is the first precision whose correctly rounded decimal reads back as the
 * same float4. Memoised per bit pattern: a track repeats few distinct speeds.
 */
export function float4Reader(): (view: DataView, offset: number) => number {
  const memo = new Map<number, number>();
  return (view, offset) => {
    const bits = view.getUint32(offset);
    const hit = memo.get(bits);
    if (hit !== undefined) return hit;
    const f = view.getFloat32(offset);
    let out = f;
    if (Number.isFinite(f) && f !== 0) {
      for (let p = 1; p <= 9; p++) {
        const d = Number(f.toPrecision(p));
        if (Math.fround(d) === f) {
          out = d;
          break;
        }
      }
    }
    memo.set(bits, out);
    return out;
  };
}
