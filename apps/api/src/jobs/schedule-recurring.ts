/**
 * Runs `run` every `everyMs`, and once `firstAfterMs` after start where given (a job that may have
 * come due while every instance was down). A run still going when the next is due is not doubled:
 * that tick is skipped. The timers never hold the process open. `run` handles its own errors (each
 * job logs them in its words); a rejection that escapes is passed to `onError`.
 * Returns the stop function, which waits for a run under way.
 */
export function scheduleRecurring(
  run: () => Promise<void>,
  opts: { everyMs: number; firstAfterMs?: number; onError: (err: unknown) => void },
): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  let stopped = false;
  const tick = () => {
    if (stopped || busy) return;
    busy = true;
    running = run()
      .catch(opts.onError)
      .finally(() => {
        busy = false;
      });
  };
  const timer = setInterval(tick, opts.everyMs);
  timer.unref();
  const first = opts.firstAfterMs === undefined ? null : setTimeout(tick, opts.firstAfterMs);
  first?.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    if (first) clearTimeout(first);
    await running;
  };
}
