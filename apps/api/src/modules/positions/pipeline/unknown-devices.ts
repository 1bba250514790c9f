import type { Protocol } from './position-row.ts';

// Devices that reported and were refused because no organization registered their id (or, through an
// organization's forwarding token, because that organization did not): counted and remembered, newest
// first, so that the devices screen can offer to add them. In memory, per instance, capped: a flood of
// made-up ids costs a bounded map, never the database.

export interface UnknownDevice {
  uniqueId: string;
  protocol: Protocol;
  /** The organization whose token the report came with (Traccar forwarding); null when none did (TCP, OsmAnd). */
  organizationId: string | null;
  firstAt: Date;
  lastAt: Date;
  attempts: number;
  /** The sender's address as the socket saw it. */
  remoteAddress: string | null;
}

export class UnknownDevices {
  private readonly byKey = new Map<string, UnknownDevice>();
  /** Refusals since start, all ids together. */
  total = 0;

  constructor(private readonly max = 500) {}

  note(uniqueId: string, protocol: Protocol, organizationId: string | null = null, remoteAddress: string | null = null, at = new Date()): void {
    this.total++;
    const key = `${organizationId ?? ''}\u0000${protocol}\u0000${uniqueId}`;
    const seen = this.byKey.get(key);
    // Re-inserted so that the map's order is the order of last attempts.
    if (seen) this.byKey.delete(key);
    this.byKey.set(
      key,
      seen
        ? { ...seen, lastAt: at, attempts: seen.attempts + 1, remoteAddress }
        : { uniqueId, protocol, organizationId, firstAt: at, lastAt: at, attempts: 1, remoteAddress },
    );
    if (this.byKey.size > this.max) this.byKey.delete(this.byKey.keys().next().value!);
  }

  /** The newest first; with an organization, the ids refused through its token only. */
  recent(filter: { organizationId?: string | null } = {}, limit = 50): UnknownDevice[] {
    const out: UnknownDevice[] = [];
    const all = [...this.byKey.values()];
    for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
      const d = all[i]!;
      if (filter.organizationId !== undefined && d.organizationId !== filter.organizationId) continue;
      out.push(d);
    }
    return out;
  }

  /** Forgets an id once it is registered. */
  forget(uniqueId: string): void {
    for (const [key, d] of this.byKey) if (d.uniqueId === uniqueId) this.byKey.delete(key);
  }
}
