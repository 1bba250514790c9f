/**
 * Concurrent requests for the same answer share one computation, without ever being answered from
 * a computation that began before they arrived (the rule of decision 0083): a caller waits for the
 * next run of its key, sent once the event loop has taken in the callers that arrived with it
 * (setImmediate) or, while a run of the key is under way, when that run ends. So every answer is as
 * of a moment after its own request arrived, and N concurrent requests cost one run instead of N.
 */
export class NextRun<V> {
  private readonly states = new Map<
    string,
    { inflight: boolean; next: { promise: Promise<V>; resolve: (v: V) => void; reject: (err: unknown) => void } | null }
  >();

  /** `compute` of the run the caller joins (the first caller's: callers of one key must pass equivalent ones). */
  run(key: string, compute: () => Promise<V>): Promise<V> {
    let st = this.states.get(key);
    if (!st) this.states.set(key, (st = { inflight: false, next: null }));
    const state = st;
    const send = () => {
      const batch = state.next;
      state.next = null;
      if (!batch) {
        this.states.delete(key);
        return;
      }
      state.inflight = true;
      compute()
        .then(batch.resolve, batch.reject)
        .finally(() => {
          state.inflight = false;
          send();
        });
    };
    if (!state.next) {
      let resolve!: (v: V) => void;
      let reject!: (err: unknown) => void;
      const promise = new Promise<V>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      state.next = { promise, resolve, reject };
      if (!state.inflight) setImmediate(send);
    }
    return state.next.promise;
  }

  /** Keys with a run under way or callers waiting (tests). */
  get size(): number {
    return this.states.size;
  }
}
