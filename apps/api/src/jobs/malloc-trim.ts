import { createRequire } from 'node:module';
import type Koffi from 'koffi';

// What the first start's seeding freed through glibc's malloc (V8's helper threads, the database
// thread's messages) stays resident where it sits in the middle of an arena: 50 MB on the idle demo
// server. glibc's malloc_trim(0) hands those pages back, once, after start-up (main.ts; decision 0179:
// 277 -> 226 MB). Node has no binding for it, so it is called through koffi's FFI; where that or glibc
// is missing (macOS, musl), trimming is skipped. It frees no live allocation: nothing can be lost.

let loaded: (() => void) | null | undefined;

/** glibc's malloc_trim(0), or null where it cannot be called (looked up once). */
export function loadMallocTrim(): (() => void) | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (process.platform !== 'linux') return loaded;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    loaded = () => void mallocTrim(0);
  } catch {
    // no koffi or no glibc: nothing to trim with
  }
  return loaded;
}
