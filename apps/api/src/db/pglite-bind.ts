import type { PGlite } from '@electric-sql/pglite';

// Prepared statements bound with binary parameters on the embedded database (decision 0331): the
// group commit's values as the wire protocol's Bind message carries them to a server (arrays in
// their binary send form: a uuid is 16 bytes, a number 4 or 8) instead of an `execute name(…)`
// text the engine must lex and whose array literals it must parse element by element in
// WebAssembly. One call into the engine runs the whole message up to its Sync, one implicit
// transaction.

/** Type OIDs of the elements the group commit sends. */
const OID = { bool: 16, text: 25, float4: 700, float8: 701, uuid: 2950, jsonb: 3802 } as const;

/** Milliseconds between the Unix epoch and 2000-01-01, PostgreSQL's timestamp origin. */
const PG_EPOCH_MS = 946_684_800_000;

const utf8 = new TextEncoder();
const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX['0123456789abcdef'.charCodeAt(i)] = HEX['0123456789ABCDEF'.charCodeAt(i)] = i;

/**
 * Writes frontend messages: Bind and Execute per statement, then Sync. Parameters are written in
 * order between `bind` and `execute`; every one is in binary format, results in text.
 */
export class BindWriter {
  private buf = new Uint8Array(16_384);
  private view = new DataView(this.buf.buffer);
  private n = 0;
  private messageAt = -1;
  private params = 0;
  /** Where each parameter's length begins (BindWriter.values). */
  private starts: number[] | null = null;

  /**
   * `count` parameters in binary, each its own Buffer (views of one allocation), without a message
   * around them: node-postgres sends a Buffer parameter in binary format.
   */
  static values(count: number, write: (w: BindWriter) => void): Buffer[] {
    const w = new BindWriter();
    w.params = count;
    w.starts = [];
    write(w);
    if (w.params !== 0) throw new Error(`bind: ${w.params} parameters missing`);
    const starts = w.starts;
    return starts.map((at, i) => Buffer.from(w.buf.buffer, w.buf.byteOffset + at + 4, (starts[i + 1] ?? w.n) - at - 4));
  }

  /** Starts a Bind of the prepared statement `name` with `count` parameters. */
  bind(name: string, count: number): this {
    this.byte(66);
    this.messageAt = this.n;
    this.int32(0);
    this.byte(0); // the unnamed portal
    this.cstring(name);
    this.int16(1); // one format code for every parameter:
    this.int16(1); // binary
    this.int16(count);
    this.params = count;
    return this;
  }

  /** Ends the Bind (results as text) and executes the portal. */
  execute(): this {
    if (this.params !== 0) throw new Error(`bind: ${this.params} parameters missing`);
    this.int16(0);
    this.view.setInt32(this.messageAt, this.n - this.messageAt);
    this.byte(69);
    this.int32(9);
    this.byte(0);
    this.int32(0);
    return this;
  }

  /** Sync: the end of the implicit transaction. Returns the message bytes. */
  sync(): Uint8Array {
    this.byte(83);
    this.int32(4);
    return this.buf.slice(0, this.n);
  }

  uuid(v: string): this {
    return this.param(() => this.uuidBytes(v));
  }
  float4(v: number): this {
    return this.param(() => this.f4(v));
  }
  /** A timestamptz from epoch milliseconds. */
  timestamptz(ms: number): this {
    return this.param(() => {
      const at = this.reserve(8);
      this.view.setBigInt64(at, BigInt(ms - PG_EPOCH_MS) * 1000n);
    });
  }

  uuidArray(values: ReadonlyArray<string | null>): this {
    return this.array(OID.uuid, values, (v) => this.uuidBytes(v));
  }
  /** Non-finite numbers are sent as NULL. */
  float8Array(values: ReadonlyArray<number | null>): this {
    return this.array(OID.float8, finite(values), (v) => {
      const at = this.reserve(8);
      this.view.setFloat64(at, v === 0 ? 0 : v);
    });
  }
  /** Non-finite numbers are sent as NULL; a value is rounded to single precision. */
  float4Array(values: ReadonlyArray<number | null>): this {
    return this.array(OID.float4, finite(values), (v) => this.f4(v));
  }
  boolArray(values: ReadonlyArray<boolean | null>): this {
    return this.array(OID.bool, values, (v) => this.byte(v ? 1 : 0));
  }
  textArray(values: ReadonlyArray<string | null>): this {
    return this.array(OID.text, values, (v) => this.utf8(v));
  }
  /** JSON texts as jsonb (its binary form is a version byte, 1, and the text). */
  jsonbArray(values: ReadonlyArray<string | null>): this {
    return this.array(OID.jsonb, values, (v) => {
      this.byte(1);
      this.utf8(v);
    });
  }

  /** A one-dimensional array: dimensions, null flag, element type, length and lower bound 1, then each element's length and bytes. */
  private array<T>(oid: number, values: ReadonlyArray<T | null>, put: (v: T) => void): this {
    return this.param(() => {
      this.int32(1);
      const nullsAt = this.reserve(4);
      this.int32(oid);
      this.int32(values.length);
      this.int32(1);
      let nulls = 0;
      for (const v of values) {
        if (v === null) {
          this.int32(-1);
          nulls = 1;
          continue;
        }
        const at = this.reserve(4);
        put(v);
        this.view.setInt32(at, this.n - at - 4);
      }
      this.view.setInt32(nullsAt, nulls);
    });
  }

  private param(write: () => void): this {
    if (this.params-- <= 0) throw new Error('bind: more parameters than announced');
    const at = this.reserve(4);
    this.starts?.push(at);
    write();
    this.view.setInt32(at, this.n - at - 4);
    return this;
  }

  /** 16 bytes from the canonical text form (8-4-4-4-12 hex digits). */
  private uuidBytes(v: string): void {
    if (v.length !== 36) throw new Error(`bind: not a uuid: ${v}`);
    const at = this.reserve(16);
    let k = 0;
    for (let i = 0; i < 36; i++) {
      if (i === 8 || i === 13 || i === 18 || i === 23) {
        if (v.charCodeAt(i) !== 45) throw new Error(`bind: not a uuid: ${v}`);
        continue;
      }
      const hi = HEX[v.charCodeAt(i)] ?? -1;
      const lo = HEX[v.charCodeAt(++i)] ?? -1;
      if (hi < 0 || lo < 0) throw new Error(`bind: not a uuid: ${v}`);
      this.buf[at + k++] = (hi << 4) | lo;
    }
  }

  private utf8(s: string): void {
    this.ensure(s.length * 3);
    this.n += utf8.encodeInto(s, this.buf.subarray(this.n)).written;
  }
  private cstring(s: string): void {
    this.utf8(s);
    this.byte(0);
  }
  // Each writer reserves before it reads `buf` or `view`: reserving may replace them.
  private f4(v: number): void {
    const at = this.reserve(4);
    this.view.setFloat32(at, v === 0 ? 0 : v);
  }
  private byte(v: number): void {
    const at = this.reserve(1);
    this.buf[at] = v;
  }
  private int16(v: number): void {
    const at = this.reserve(2);
    this.view.setInt16(at, v);
  }
  private int32(v: number): void {
    const at = this.reserve(4);
    this.view.setInt32(at, v);
  }
  /** Makes room for `k` bytes and returns where they start. */
  private reserve(k: number): number {
    this.ensure(k);
    const at = this.n;
    this.n += k;
    return at;
  }
  private ensure(k: number): void {
    if (this.n + k <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.n + k) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
}

const finite = (values: ReadonlyArray<number | null>) => values.map((v) => (v !== null && Number.isFinite(v) ? v : null));

/** The data rows a message's statements returned, in order, each field as text (null for NULL). */
export type BoundRows = Array<Array<string | null>>;

/**
 * Runs a message of BindWriter's on a PGlite of this thread, under the locks its own calls take (no
 * transaction or statement runs beside it). A statement's error is thrown with PostgreSQL's fields
 * (code…); the Sync at the message's end has then already closed the implicit transaction.
 */
export function runBoundHere(db: PGlite, message: Uint8Array): Promise<BoundRows> {
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      const rows: BoundRows = [];
      for (const m of await db.execProtocolStream(message, {})) if (m.name === 'dataRow') rows.push((m as unknown as { fields: Array<string | null> }).fields);
      return rows;
    }),
  );
}
