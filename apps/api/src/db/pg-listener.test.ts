import { describe, expect, it } from 'vitest';
import { sharedRoundTrips } from './pg-listener.ts';

/** Round trips whose completion the test controls, numbered in the order they were sent. */
function controlledRoundTrips() {
  const sent: Array<{ finish: (err?: Error) => void }> = [];
  const roundTrip = () =>
    new Promise<void>((resolve, reject) => {
      sent.push({ finish: (err) => (err ? reject(err) : resolve()) });
    });
  return { sent, roundTrip };
}

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, 0));
  return done;
};

describe('shared round trips (listener sync)', () => {
  it('answers a caller only after a round trip sent after its call, sharing one among later callers', async () => {
    const { sent, roundTrip } = controlledRoundTrips();
    const sync = sharedRoundTrips(roundTrip);
    const first = sync();
    expect(sent).toHaveLength(1);
    // Arrived while the first round trip was under way: it may have been sent before them.
    const later = [sync(), sync(), sync()];
    expect(sent).toHaveLength(1);
    sent[0]!.finish();
    await first;
    expect(await settled(later[0]!)).toBe(false);
    expect(sent).toHaveLength(2);
    sent[1]!.finish();
    await Promise.all(later);
    // Nothing under way: the next caller sends its own.
    const alone = sync();
    expect(sent).toHaveLength(3);
    sent[2]!.finish();
    await alone;
  });

  it('rejects the callers of a failed round trip and recovers on the next', async () => {
    const { sent, roundTrip } = controlledRoundTrips();
    const sync = sharedRoundTrips(roundTrip);
    const first = sync();
    const queued = sync();
    sent[0]!.finish(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    // The queued caller still gets a round trip of its own after the failed one.
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toHaveLength(2);
    sent[1]!.finish();
    await expect(queued).resolves.toBeUndefined();
  });
});
