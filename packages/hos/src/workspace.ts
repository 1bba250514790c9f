/**
 * Working memory of one engine call (decision 0014). A typed array of 90 entries costs about 1 µs
 * to allocate here (an off-heap buffer, zeroed, tracked by the GC), and a call needs five to eight
 * of them: as much as judging the rules. Calls therefore take their arrays as views of one pooled
 * buffer, returned when the call ends. Nothing the caller sees ever points into it (results are
 * fresh objects), so reusing it is not observable. A call made while another is running (a getter
 * on a period calling the engine) gets a workspace of its own, and a buffer grown past MAX_KEPT
 * entries by an unusually long log is dropped instead of kept.
 */
const MAX_KEPT = 1 << 20;

export class Workspace {
  private f: Float64Array;
  private u: Uint8Array;
  private fo = 0;
  private uo = 0;

  constructor(capacity = 4096) {
    this.f = new Float64Array(capacity);
    this.u = new Uint8Array(capacity);
  }

  /** A view of `len` doubles with arbitrary contents (callers write before they read), valid until release. */
  f64(len: number): Float64Array {
    if (this.fo + len > this.f.length) {
      this.f = new Float64Array(Math.max(2 * this.f.length, len));
      this.fo = 0;
    }
    return this.f.subarray(this.fo, (this.fo += len));
  }

  /** A view of `len` bytes with arbitrary contents, valid until release. */
  u8(len: number): Uint8Array {
    if (this.uo + len > this.u.length) {
      this.u = new Uint8Array(Math.max(2 * this.u.length, len));
      this.uo = 0;
    }
    return this.u.subarray(this.uo, (this.uo += len));
  }

  reset(): void {
    this.fo = 0;
    this.uo = 0;
  }

  get capacity(): number {
    return this.f.length;
  }
}

let idle: Workspace | null = null;

/** The pooled workspace if no call is using it, otherwise a new one. */
export function acquire(): Workspace {
  const ws = idle ?? new Workspace();
  idle = null;
  ws.reset();
  return ws;
}

/** Gives the workspace back once the call's result no longer needs it. */
export function release(ws: Workspace): void {
  if (ws.capacity <= MAX_KEPT) idle = ws;
}
