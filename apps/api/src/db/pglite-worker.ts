import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type ParserOptions, type QueryOptions, type Results, type Transaction, types } from '@electric-sql/pglite';
import { runBoundHere, type BoundRows } from './pglite-bind.ts';
import { PreparedStatements } from './pglite-prepared.ts';
import { compilePglite, pgliteBundles, pgliteOptions, wasmBytesOf } from './pglite-open.ts';
import {
  toWireError,
  type OpenWord,
  type Reply,
  type Request,
  type WireQueryOptions,
  type WireResults,
  type WorkerHeap,
  type WorkerStart,
} from './pglite-protocol.ts';

// The embedded database's own thread (decision 0170): PGlite and its WebAssembly run here, so a
// statement, however long, holds up no request on the API's thread. Requests arrive in order and
// PGlite queues them on its own lock; a transaction holds that lock until the API thread ends it.

const port = parentPort!;
const start = workerData as WorkerStart;
const post = (m: Reply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

const identity = (v: string) => v;

async function open(word: OpenWord): Promise<PGlite> {
  const { fsBundle, runningBundle } = await pgliteBundles();
  const pgliteWasmModule = start.pgliteWasmModule ?? (await compilePglite());
  const template = word.template ? new Blob([word.template]) : undefined;
  const db = new PGlite(
    start.dataDir ?? 'memory://',
    pgliteOptions({ dataDir: start.dataDir, template, sharedBuffers: start.sharedBuffers, pgliteWasmModule, fsBundle, runningBundle }),
  );
  await db.waitReady;
  // Drizzle's types are text unless a call says otherwise (queryOptions).
  for (const t of DRIZZLE_TEXT_TYPES) {
    const element = ARRAY_OF[t];
    // PGlite's array parsers read their element's parser when called: here, PGlite's own.
    ownParsers[t] = element === undefined ? db.parsers[t]! : (v: string) => types.arrayParser(v, ownParsers[element] ?? db.parsers[element]!, t);
  }
  for (const t of DRIZZLE_TEXT_TYPES) db.parsers[t] = identity;
  return db;
}

/**
 * The types Drizzle's PGlite session asks to keep as text on every query (dates, timestamps,
 * intervals and their arrays, numeric arrays). PGlite merges a query's parsers into its own 318 by
 * copying them all, a quarter of a millisecond a statement in this thread; so this thread's PGlite
 * has Drizzle's choice as its own, and a Drizzle query passes none. A call that asks for other text
 * types, or none (a direct call: COPY, the tests), passes its own and pays the copy. EXEC's results
 * (PREPARE, the group commit's counts) keep these types as text.
 */
const DRIZZLE_TEXT_TYPES = [1082, 1114, 1115, 1182, 1184, 1185, 1186, 1187, 1231];
/** The element types of those that are arrays. */
const ARRAY_OF: Record<number, number> = { 1115: 1114, 1182: 1082, 1185: 1184, 1187: 1186, 1231: 1700 };
const DRIZZLE_KEY = DRIZZLE_TEXT_TYPES.join(',');
/** PGlite's own parsers of those types, for the calls that want them. */
const ownParsers: ParserOptions = {};

function queryOptions(o: WireQueryOptions | undefined): QueryOptions {
  const text = o?.textTypes ?? [];
  if (text.length === DRIZZLE_TEXT_TYPES.length && [...text].sort((a, b) => a - b).join(',') === DRIZZLE_KEY) return { rowMode: o?.rowMode };
  const parsers: ParserOptions = { ...ownParsers };
  for (const t of text) parsers[t] = identity;
  return { rowMode: o?.rowMode, parsers };
}

async function wire(r: Results): Promise<{ value: WireResults; transfer: ArrayBuffer[] }> {
  const value: WireResults = { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows };
  if (!r.blob) return { value, transfer: [] };
  value.bytes = await r.blob.arrayBuffer();
  return { value, transfer: [value.bytes] };
}

/** Transactions under way, by id: each holds PGlite's lock until `end` settles it. */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();
let nextTx = 1;
const channels = new Map<string, () => Promise<void>>();
const prepared = new PreparedStatements();

async function handle(
  db: PGlite,
  m: Request,
): Promise<{ value: WireResults | WireResults[] | BoundRows | WorkerHeap | number | null; transfer: ArrayBuffer[] }> {
  const on = (tx: number | undefined) => {
    if (tx === undefined) return db;
    const t = transactions.get(tx);
    if (!t) throw new Error('Transaction is closed');
    return t.tx;
  };
  switch (m.op) {
    case 'query':
      // Hot statements run prepared (pglite-prepared.ts).
      if (m.tx === undefined) return wire(await prepared.query(db, m.sql, m.params, queryOptions(m.options)));
      return wire(await prepared.queryInTransaction(on(m.tx), m.sql, m.params, queryOptions(m.options)));
    case 'exec': {
      const results = await on(m.tx).exec(m.sql);
      const out = await Promise.all(results.map(wire));
      return { value: out.map((o) => o.value), transfer: out.flatMap((o) => o.transfer) };
    }
    case 'bound':
      return { value: await runBoundHere(db, new Uint8Array(m.message)), transfer: [] };
    case 'begin': {
      const id = nextTx++;
      // Answered once BEGIN has run and the lock is held; `end` lets the callback return (COMMIT)
      // or throw (ROLLBACK), and its own reply is sent when PGlite has done so.
      return new Promise((begun, failed) => {
        db.transaction(
          (tx) =>
            new Promise<void>((commit, rollback) => {
              transactions.set(id, { tx, end: (ok) => (ok ? commit() : rollback(new RolledBack())) });
              begun({ value: id, transfer: [] });
            }),
        )
          .catch((err: unknown) => {
            if (err instanceof RolledBack) return;
            // COMMIT failed (the `end` request gets the error), or BEGIN did (the `begin` request).
            const settle = ended.get(id);
            if (settle) settle(err);
            else failed(err);
          })
          .finally(() => {
            transactions.delete(id);
            ended.get(id)?.(null);
            ended.delete(id);
          });
      });
    }
    case 'end': {
      const t = transactions.get(m.tx);
      if (!t) throw new Error('Transaction is closed');
      const done = new Promise<unknown>((resolve) => ended.set(m.tx, resolve));
      t.end(m.commit);
      const err = await done;
      if (err) throw err;
      return { value: null, transfer: [] };
    }
    case 'listen':
      if (!channels.has(m.channel)) channels.set(m.channel, await db.listen(m.channel, (payload) => post({ id: 0, notify: m.channel, payload })));
      return { value: null, transfer: [] };
    case 'unlisten':
      await channels.get(m.channel)?.();
      channels.delete(m.channel);
      return { value: null, transfer: [] };
    case 'heap': {
      const gc = (globalThis as { gc?: () => void }).gc;
      // A plain collection: V8's flags are the process's, never changed while the other thread runs (main.ts).
      if (m.collect && gc) gc();
      const h = v8.getHeapStatistics();
      return { value: { used: h.used_heap_size, committed: h.total_heap_size, external: h.external_memory }, transfer: [] };
    }
    case 'close':
      await db.close();
      return { value: null, transfer: [] };
  }
}

class RolledBack extends Error {}
/** Settles an `end` request with the transaction's outcome: null, or COMMIT's error. */
const ended = new Map<number, (err: unknown) => void>();

try {
  // Booted, the thread waits for the word to open.
  const word = await new Promise<OpenWord>((go) => port.once('message', go));
  const db = await open(word);
  port.on('message', (m: Request) => {
    handle(db, m).then(
      ({ value, transfer }) => post({ id: m.id, ok: true, value, wasmBytes: wasmBytesOf(db) }, transfer),
      (err: unknown) => {
        post({ id: m.id, ok: false, error: toWireError(err), wasmBytes: wasmBytesOf(db) });
        // A trap in the WebAssembly (Emscripten's abort(), an out-of-bounds access) leaves PGlite's
        // memory in no known state: every later statement would fail or worse. The thread ends, so
        // the API's thread opens the data directory in a new one (client.ts).
        if (err instanceof Error && err.name === 'RuntimeError') {
          setImmediate(() => {
            throw err;
          });
        }
      },
    );
  });
  post({ id: 0, ready: true, wasmBytes: wasmBytesOf(db) });
} catch (err) {
  post({ id: 0, failed: toWireError(err) });
}
