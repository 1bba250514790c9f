import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { runningServerBundle } from './pglite-bundle.ts';

// PGlite's files (its WebAssembly, its file bundle) and its memory size, without loading PGlite's
// code: the API thread in the worker mode needs these only (decision 0170).

/** PGlite's package folder (its WebAssembly and file bundle). */
export const pgliteDir = () => path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));

/** Compiles PGlite's 9 MB WebAssembly. A compiled module can be posted to a worker thread without compiling again. */
export async function compilePglite(): Promise<WebAssembly.Module> {
  const wasm = await fs.promises.readFile(path.join(pgliteDir(), 'pglite.wasm'));
  // The global's value is not declared by this project's libraries (no DOM lib), only its types.
  const { WebAssembly: wasmApi } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } };
  return wasmApi.compile(wasm);
}

/**
 * The file bundle: a Blob backed by the file (read at each open; the first start opens twice) rather
 * than 6 MB held in memory, and the same without the files only initdb reads (pglite-bundle.ts).
 */
export async function pgliteBundles(): Promise<{ fsBundle: Blob; runningBundle: Blob }> {
  const dir = pgliteDir();
  const fsBundle = await fs.openAsBlob(path.join(dir, 'pglite.data'));
  return { fsBundle, runningBundle: runningServerBundle(fsBundle, dir) };
}

/** Size of a PGlite's WebAssembly memory (it only grows). */
export function wasmBytesOf(client: PGlite): number | null {
  return (client.Module as { HEAPU8?: Uint8Array } | undefined)?.HEAPU8?.buffer.byteLength ?? null;
}
