import { withRequiredPermissions } from '@fleet/api-contract';

/** Ticking a code ticks what it requires; unticking one unticks every code that needs it. */
export function togglePermission(current: readonly string[], code: string, on: boolean): string[] {
  if (on) return withRequiredPermissions([...current, code]);
  const removed = new Set([code]);
  // Drop dependents until nothing more depends on a removed code.
  let changed = true;
  while (changed) {
    changed = false;
    for (const c of current) {
      if (removed.has(c)) continue;
      const needs = withRequiredPermissions([c]);
      if (needs.some((n) => removed.has(n))) {
        removed.add(c);
        changed = true;
      }
    }
  }
  return current.filter((c) => !removed.has(c));
}
