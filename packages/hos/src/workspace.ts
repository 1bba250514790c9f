/**
 * Working memory of one engine call (decision 0014). A typed array of 90 entries costs about 1 µs
 * to allocate here (an off-heap buffer, zeroed, tracked by the GC), and a call needs up to fourteen
 * of them: as much as judging the rules. Calls therefore take their arrays from a pool, returned
 * when the call ends. Nothing the caller sees ever points into it (results are fresh objects), so
 * reusing it is not observable. A call made while another is running (a getter
 * on a period calling the engine) gets a workspace of its own, and a workspace grown past MAX_KEPT
 * doubles by an unusually long log is dropped instead of kept. Arrays may be longer than asked:
 * every user carries its own length (n, nb).
 */
const MAX_KEPT = 1 << 20;

export class Workspace {
  /** Arrays handed out in order; each grows on its own when a call needs more. */
  private readonly f: Float64Array[] = [];
  private readonly u: Uint8Array[] = [];
  private fi = 0;
  private ui = 0;

  /**
   * An array of at least `len` doubles with arbitrary contents (callers write before they read),
   * distinct from every other array handed out since the last reset. Not a view (subarray costs
   * an object and a species look-up): the next array of the pool, replaced when too short.
   */
  f64(len: number): Float64Array {
    let a = this.f[this.fi];
    if (a === undefined || a.length < len) {
      a = new Float64Array(Math.max(len, 2 * (a?.length ?? 64)));
      this.f[this.fi] = a;
    }
    this.fi++;
    return a;
  }

  /** As f64, for bytes. */
  u8(len: number): Uint8Array {
    let a = this.u[this.ui];
    if (a === undefined || a.length < len) {
      a = new Uint8Array(Math.max(len, 2 * (a?.length ?? 64)));
      this.u[this.ui] = a;
    }
    this.ui++;
    return a;
  }

  reset(): void {
    this.fi = 0;
    this.ui = 0;
  }

  /** Doubles held (the bound on what the pool keeps). */
  get size(): number {
    let n = 0;
    for (const a of this.f) n += a.length;
    return n;
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
  if (ws.size <= MAX_KEPT) idle = ws;
}
