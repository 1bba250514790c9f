/**
 * Runs `write` on `items` and on the same items reversed at the same time, `rounds` times, as two
 * API instances' followers would write the same rows: the database's words for the first failure
 * (drizzle carries them as the error's cause, e.g. "error: deadlock detected"), or undefined.
 */
export async function failureInOppositeOrders<T>(
  items: readonly T[],
  write: (items: readonly T[]) => Promise<unknown>,
  rounds: number,
): Promise<string | undefined> {
  const reversed = [...items].reverse();
  for (let round = 0; round < rounds; round++) {
    const failed = (await Promise.allSettled([write(items), write(reversed)])).find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) return String((failed.reason as { cause?: unknown }).cause ?? failed.reason);
  }
  return undefined;
}
