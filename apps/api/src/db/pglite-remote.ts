import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import type { BoundRows } from './pglite-bind.ts';
import {
  fromWireError,
  type Answer,
  type Call,
  type Reply,
  type Request,
  type WireQueryOptions,
  type WireResults,
  type WorkerHeap,
  type WorkerStart,
} from './pglite-protocol.ts';

// The embedded database in a worker thread (decision 0170), seen from the API's thread: the part of
// PGlite's interface Drizzle and the app use (query, exec, transaction, listen, close), each call a
// message to pglite-worker.ts. The worker runs the statements and their WebAssembly; this thread
// only clones their results in.

/** A statement's results, as PGlite gives them; a COPY TO '/dev/blob' also gives its bytes. */
export type RemoteResults<T> = Results<T> & { bytes?: Uint8Array };

/** The calls a transaction gets, as PGlite's Transaction (the ones Drizzle uses). */
export interface RemoteTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<RemoteResults<T>>;
  exec(sql: string): Promise<Array<RemoteResults<unknown>>>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** A call waiting for the thread; `call` is described only if it stalls (callWords rewrites its SQL's white space). */
type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; since: number; call: Call };

/**
 * A call that waits this long for the thread is logged once, with the transactions then open and
 * their last statements: the CI soak once saw the database stop answering after a restart, with
 * nothing in the log to say what held it.
 */
export const STALL_REPORT_MS = 30_000;

/** What a call is, for the stall report: its operation and the head of its SQL. */
function callWords(m: Call): string {
  const sql = 'sql' in m && typeof m.sql === 'string' ? `: ${m.sql.replace(/\s+/g, ' ').slice(0, 120)}` : '';
  return `${m.op}${'tx' in m && m.tx !== undefined ? ` (transaction ${m.tx})` : ''}${sql}`;
}

/**
 * The database's worker thread stopped (terminated, an uncaught error, its heap out of memory, a
 * WebAssembly trap): the statements under way and every later one on that thread fail with this.
 * The error handler answers it with 503 (plugins/errors.ts).
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

const PROBE = '\u0001probe';

/**
 * The transaction whose callback is running, for the statements it makes. PGlite is one session: a
 * statement sent *outside* the transaction from inside its callback waits for the transaction to
 * end, and if the callback awaits it, that is never: every later statement waits too and the
 * database stops answering. Such a statement is logged once per place with its stack (a soak's
 * server hung without a line in its log).
 *
 * Outside production only (RemoteStart.checkContext): once an AsyncLocalStorage runs, Node 20 calls
 * a hook on every promise the process makes, and an OsmAnd position cost a quarter more CPU with it
 * (decision 0334). Production keeps the stall report, which names the open transactions.
 */
type TransactionContext = AsyncLocalStorage<{ id: number; open: () => boolean }>;
const reported = new Set<string>();

function reportOutsideStatement(id: number, sql: string): void {
  const stack = (new Error().stack ?? '').split('\n').slice(3, 12).join('\n');
  const key = stack || sql.slice(0, 80);
  if (reported.has(key)) return;
  reported.add(key);
  console.error(
    `database: a statement outside transaction ${id} was sent from inside it and waits for it to end (a deadlock if awaited): ${sql.slice(0, 120)}\n${stack}`,
  );
}

/**
 * Drizzle passes parsers that leave dates, times and numerics as text (identity functions); only
 * those can cross to the worker, as a list of types. Any other parser is refused.
 */
function wireOptions(o: QueryOptions | undefined): WireQueryOptions | undefined {
  if (!o) return undefined;
  if (o.serializers || o.blob || o.paramTypes || o.onNotice) throw new Error('the worker-thread PGlite takes rowMode and identity parsers only');
  const textTypes: number[] = [];
  for (const [oid, parse] of Object.entries(o.parsers ?? {})) {
    if (parse(PROBE, Number(oid)) !== PROBE) throw new Error(`the worker-thread PGlite cannot run a parser for type ${oid}`);
    textTypes.push(Number(oid));
  }
  return { rowMode: o.rowMode, textTypes: textTypes.length ? textTypes : undefined };
}

function results<T>(w: WireResults): RemoteResults<T> {
  const r: RemoteResults<T> = { rows: w.rows as T[], fields: w.fields, affectedRows: w.affectedRows };
  if (w.bytes) r.bytes = new Uint8Array(w.bytes);
  return r;
}

export interface RemoteStart {
  dataDir: string | undefined;
  template?: Blob;
  sharedBuffers: string;
  pgliteWasmModule: WebAssembly.Module;
  /** Log a statement sent outside a transaction from inside its callback (default true; off in production). */
  checkContext?: boolean;
}

export class RemotePGlite {
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private failure: Error | null = null;
  private lastWasmBytes: number | null = null;
  /** Open transactions: since when, and their last statement as sent (the stall report shortens it). */
  private readonly openTransactions = new Map<number, { since: number; last: string }>();
  private readonly stallReported = new Set<number>();
  private readonly stallTimer: NodeJS.Timeout;
  readonly waitReady: Promise<void>;
  closed = false;
  /** Called once if the thread stops without close() (client.ts restarts it or reports the loss). */
  onDeath: ((err: Error) => void) | null = null;

  private readonly inTransaction: TransactionContext | null;

  private constructor(
    private readonly worker: Worker,
    checkContext: boolean,
  ) {
    this.inTransaction = checkContext ? new AsyncLocalStorage() : null;
    this.stallTimer = setInterval(() => this.reportStall(), STALL_REPORT_MS / 3);
    this.stallTimer.unref();
    this.waitReady = new Promise((ready, failed) => {
      worker.on('message', (m: Reply) => {
        if ('ok' in m) return this.settle(m);
        if ('notify' in m) for (const fn of this.listeners.get(m.notify) ?? []) fn(m.payload);
        else if ('ready' in m) {
          this.lastWasmBytes = m.wasmBytes;
          if (this.pending.size === 0) worker.unref();
          ready();
        } else if ('failed' in m) failed(fromWireError(m.failed));
      });
      // 'error' (an uncaught error, ERR_WORKER_OUT_OF_MEMORY) comes before 'exit': the first says why.
      const fail = (why: string) => {
        if (this.failure) return;
        const err = new DatabaseUnavailableError(`the embedded database's worker thread stopped (${why})`);
        this.failure = err;
        clearInterval(this.stallTimer);
        failed(err);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
        if (!this.closed) this.onDeath?.(err);
      };
      worker.on('error', (err) => fail(err.message));
      worker.on('exit', (code) => fail(`exit code ${code}`));
    });
    // Idle, the worker does not keep the process alive (as an in-thread PGlite does not); while it
    // opens and while an answer is awaited it does, or a script awaiting it would end without it.
  }

  /** Starts the worker thread and opens the database in it. */
  static start(o: RemoteStart): Promise<RemotePGlite> {
    return RemotePGlite.boot(o).open();
  }

  /**
   * Starts the worker thread (Node, the modules, the bundle) without opening the database yet: `open`
   * then opens it. A reopen boots the next thread while the previous one closes.
   */
  static boot(o: RemoteStart): { open(): Promise<RemotePGlite>; cancel(): Promise<void> } {
    const source = import.meta.url.endsWith('.ts');
    const workerData: WorkerStart = {
      dataDir: o.dataDir,
      sharedBuffers: o.sharedBuffers,
      pgliteWasmModule: o.pgliteWasmModule,
      entry: source ? path.join(import.meta.dirname, 'pglite-worker.ts') : undefined,
    };
    const file = path.join(import.meta.dirname, source ? 'pglite-worker-boot.mjs' : 'pglite-worker.js');
    // The worker's heap holds little but results on their way: a small young generation.
    const worker = new Worker(file, { workerData, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    const client = new RemotePGlite(worker, o.checkContext ?? true);
    return {
      async open() {
        // A template's bytes go with the word to open (transferred, not copied).
        const template = o.template ? await o.template.arrayBuffer() : undefined;
        worker.postMessage({ template }, template ? [template] : []);
        await client.waitReady;
        return client;
      },
      cancel: async () => void (await worker.terminate()),
    };
  }

  private settle(m: Answer) {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    this.stallReported.delete(m.id);
    if (this.pending.size === 0) this.worker.unref();
    this.lastWasmBytes = m.wasmBytes;
    if (m.ok) p.resolve(m.value);
    else p.reject(fromWireError(m.error));
  }

  private call<T>(m: Call, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, since: Date.now(), call: m });
      this.worker.postMessage({ ...m, id } as Request, transfer);
    });
  }

  private async runQuery<T>(tx: number | undefined, sql: string, params?: unknown[], options?: QueryOptions): Promise<RemoteResults<T>> {
    return results<T>(await this.call<WireResults>({ op: 'query', tx, sql, params, options: wireOptions(options) }));
  }

  private async runExec(tx: number | undefined, sql: string): Promise<Array<RemoteResults<unknown>>> {
    return (await this.call<WireResults[]>({ op: 'exec', tx, sql })).map((w) => results(w));
  }

  private checkOutside(sql: string): void {
    const t = this.inTransaction?.getStore();
    if (t?.open()) reportOutsideStatement(t.id, sql);
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<RemoteResults<T>> {
    this.checkOutside(sql);
    return this.runQuery<T>(undefined, sql, params, options);
  }

  exec(sql: string): Promise<Array<RemoteResults<unknown>>> {
    this.checkOutside(sql);
    return this.runExec(undefined, sql);
  }

  /** Runs a BindWriter message (pglite-bind.ts) outside any transaction: its data rows. */
  bound(message: Uint8Array): Promise<BoundRows> {
    this.checkOutside('bound');
    // The message is the caller's own copy (BindWriter.sync): its buffer is handed over, not cloned.
    const buffer = message.byteOffset === 0 && message.byteLength === message.buffer.byteLength ? (message.buffer as ArrayBuffer) : message.slice().buffer;
    return this.call<BoundRows>({ op: 'bound', message: buffer }, [buffer]);
  }

  /**
   * Runs `fn` in a transaction: BEGIN in the worker, which then runs only this transaction's
   * statements (PGlite is one session) until `fn` settles: COMMIT, or ROLLBACK and the error.
   */
  async transaction<T>(fn: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ op: 'begin' });
    this.openTransactions.set(id, { since: Date.now(), last: 'none yet' });
    const noted = (sql: string) => {
      const t = this.openTransactions.get(id);
      if (t) t.last = sql;
    };
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx: RemoteTransaction = {
      query: (sql, params, options) => (open(), noted(sql), this.runQuery(id, sql, params, options)),
      exec: (sql) => (open(), noted(sql), this.runExec(id, sql)),
      rollback: async () => {
        open();
        closed = true;
        await this.call({ op: 'end', tx: id, commit: false });
      },
      get closed() {
        return closed;
      },
    };
    let value: T;
    try {
      try {
        const context = this.inTransaction;
        value = await (context ? context.run({ id, open: () => !closed }, () => fn(tx)) : fn(tx));
      } catch (err) {
        if (!closed) {
          closed = true;
          await this.call({ op: 'end', tx: id, commit: false });
        }
        throw err;
      }
      if (!closed) {
        closed = true;
        await this.call({ op: 'end', tx: id, commit: true });
      }
    } finally {
      this.openTransactions.delete(id);
    }
    return value;
  }

  /** Logs, once per call, a call that has waited STALL_REPORT_MS for the thread, and what was open then. */
  private reportStall(): void {
    const now = Date.now();
    for (const [id, p] of this.pending) {
      if (now - p.since < STALL_REPORT_MS || this.stallReported.has(id)) continue;
      this.stallReported.add(id);
      const open = [...this.openTransactions].map(
        ([tx, t]) => `transaction ${tx} open for ${Math.round((now - t.since) / 1000)} s, its last statement: ${t.last.replace(/\s+/g, ' ').slice(0, 120)}`,
      );
      console.error(
        `database: a ${callWords(p.call)} has waited ${Math.round((now - p.since) / 1000)} s for the embedded database's thread; ${open.length ? open.join('; ') : 'no transaction open'}; ${this.pending.size} calls waiting`,
      );
    }
  }

  /** LISTEN on the database; a notification reaches `fn` before the answer of the statement that sent it. */
  async listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.call({ op: 'listen', channel });
    }
    set.add(fn);
    return async () => {
      set.delete(fn);
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        // A stopped thread listens to nothing any more.
        if (this.failure) return;
        await this.call({ op: 'unlisten', channel });
      }
    };
  }

  /** The database's WebAssembly memory size, as of the last answer. */
  wasmMemoryBytes(): number | null {
    return this.lastWasmBytes;
  }

  /** The worker thread's V8 heap (not counted in the API thread's heap figures). */
  heapStatistics(collect = false): Promise<WorkerHeap> {
    return this.call<WorkerHeap>({ op: 'heap', collect });
  }

  /** False once the thread has stopped (closed, or died). */
  get alive(): boolean {
    return !this.failure;
  }

  /** Ends the thread at once, as a crash would (tests of the restart; onDeath is called). */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  /** Closes the database (after the statements under way) and ends the thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.stallTimer);
    if (!this.failure) await this.call({ op: 'close' });
    this.failure ??= new DatabaseUnavailableError('the database is closed');
    await this.worker.terminate();
  }
}
