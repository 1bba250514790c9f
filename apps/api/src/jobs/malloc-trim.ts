import { createRequire } from 'node:module';
import type Koffi from 'koffi';

// V8's helper threads (concurrent marking, background compilation) allocate through glibc's malloc in
// per-thread arenas. What they free in the middle of an arena stays resident: 20-70 MB on the idle demo
// server. glibc's malloc_trim(0) hands those pages back (decision 0151). Node has no binding for it, so
// it is called through koffi's FFI; where that or glibc is missing (macOS, musl), trimming is skipped.

/** glibc's malloc_trim(0), or null where it cannot be called. */
export function loadMallocTrim(): (() => void) | null {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return () => void mallocTrim(0);
  } catch {
    return null;
  }
}
