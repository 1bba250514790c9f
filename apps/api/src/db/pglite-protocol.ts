import type { BoundRows } from './pglite-bind.ts';

// Messages between the API's thread and the worker thread that runs the embedded database
// (pglite-remote.ts, pglite-worker.ts; decision 0170). Every request carries an id its answer repeats.

/** A query's options as they cross threads: parsers are functions, so only "leave this type as text". */
export interface WireQueryOptions {
  rowMode?: 'array' | 'object';
  /** Type OIDs whose values stay text (Drizzle's identity parsers for dates, times and numerics). */
  textTypes?: number[];
}

export type Request =
  | { op: 'query'; id: number; tx?: number; sql: string; params?: unknown[]; options?: WireQueryOptions }
  | { op: 'exec'; id: number; tx?: number; sql: string }
  /** A BindWriter message (pglite-bind.ts), transferred; answered with its data rows. */
  | { op: 'bound'; id: number; message: ArrayBuffer }
  | { op: 'begin'; id: number }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'listen'; id: number; channel: string }
  | { op: 'unlisten'; id: number; channel: string }
  /** `collect`: a full, compacting collection first (once after start-up: main.ts). */
  | { op: 'heap'; id: number; collect?: boolean }
  | { op: 'close'; id: number };

/** An error as it crosses threads: its message and PostgreSQL's fields (code, constraint, detail…). */
export interface WireError {
  message: string;
  fields: Record<string, unknown>;
}

/** The worker's V8 heap (v8.getHeapStatistics()), in bytes. */
export interface WorkerHeap {
  used: number;
  committed: number;
  external: number;
}

export interface WireResults {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
  /** A COPY … TO '/dev/blob' result's bytes (transferred, not copied). */
  bytes?: ArrayBuffer;
}

/** The answer to one request. */
export type Answer =
  | { id: number; ok: true; value: WireResults | WireResults[] | BoundRows | WorkerHeap | number | null; wasmBytes: number | null }
  | { id: number; ok: false; error: WireError; wasmBytes: number | null };

/** Requests without their id, which the sender adds. */
export type Call = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export type Reply = Answer | { id: 0; notify: string; payload: string } | { id: 0; ready: true; wasmBytes: number | null } | { id: 0; failed: WireError };

/** The word to open the database, with a template's bytes (transferred) for an in-memory one. */
export interface OpenWord {
  template?: ArrayBuffer;
}

/** What the worker is started with. */
export interface WorkerStart {
  dataDir: string | undefined;
  sharedBuffers: string;
  pgliteWasmModule: WebAssembly.Module;
  /** The TypeScript module to load (source runs only; the compiled worker is the module itself). */
  entry?: string;
}

export function toWireError(err: unknown): WireError {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(err)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) fields[k] = v;
  return { message: err.message, fields };
}

/** An Error with PostgreSQL's fields on it, as pg-error.ts reads them. */
export function fromWireError(e: WireError): Error {
  return Object.assign(new Error(e.message), e.fields);
}
