// What the soak's devices were told (bench/soak.ts): every acknowledged (device, fix time), every
// send that was not acknowledged and why, every fix a batch answer refused. Compared at the end with
// what the database stored: lost = acknowledged and not stored; stored twice = a (device, fix time)
// stored more than once.
import fs from 'node:fs';

export type Protocol = 'osmand' | 'teltonika' | 'batch' | 'traccar';

/** A send that got no acknowledgement, as the device saw it. */
export interface Failure {
  at: number;
  protocol: Protocol;
  /** e.g. "HTTP 503", "timeout", "ECONNRESET", "no acknowledgement", "cut mid-packet (fault)". */
  cause: string;
}

export class Ledger {
  /** Acknowledged fixes per device unique id, in the order acknowledged: [fix time, when acknowledged] (epoch ms). */
  readonly acked = new Map<string, Array<[fixTime: number, ackedAt: number]>>();
  readonly failures: Failure[] = [];
  /** Fixes a JSON batch answer refused (not resent: a gateway drops what the server refuses). */
  readonly refused: Array<{ uniqueId: string; time: number; message: string }> = [];
  readonly sends = new Map<Protocol, number>();
  private readonly log: fs.WriteStream | null;

  /** `file`: the acknowledged fixes are also written there, one `uniqueId,epochMs` line each (to look into a loss later). */
  constructor(file?: string) {
    this.log = file ? fs.createWriteStream(file) : null;
  }

  sent(protocol: Protocol): void {
    this.sends.set(protocol, (this.sends.get(protocol) ?? 0) + 1);
  }

  acknowledged(uniqueId: string, times: readonly number[]): void {
    let list = this.acked.get(uniqueId);
    if (!list) this.acked.set(uniqueId, (list = []));
    const now = Date.now();
    for (const t of times) {
      list.push([t, now]);
      this.log?.write(`${uniqueId},${t}\n`);
    }
  }

  failed(protocol: Protocol, cause: string): void {
    this.failures.push({ at: Date.now(), protocol, cause });
  }

  refusedFix(uniqueId: string, time: number, message: string): void {
    this.refused.push({ uniqueId, time, message });
  }

  get ackedCount(): number {
    let n = 0;
    for (const l of this.acked.values()) n += l.length;
    return n;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.log ? this.log.end(resolve) : resolve()));
  }
}

/** Acknowledged against stored, for one organization's devices. */
export interface StoredComparison {
  acknowledged: number;
  /** Distinct acknowledged (device, fix time) pairs: a resend acknowledged twice counts once. */
  acknowledgedDistinct: number;
  stored: number;
  lost: Array<{ uniqueId: string; time: number; ackedAt: number }>;
  /** Stored but never acknowledged: in flight when a fault struck (their resends are acknowledged), or never sent again. */
  storedUnacknowledged: number;
}

/** `stored`: the rows of the soak organization, (unique id, epoch ms). */
export function compareStored(ledger: Ledger, stored: ReadonlyArray<{ uniqueId: string; time: number }>): StoredComparison {
  const have = new Set(stored.map((s) => `${s.uniqueId}|${s.time}`));
  const acked = new Set<string>();
  const lost: StoredComparison['lost'] = [];
  let acknowledged = 0;
  for (const [uniqueId, list] of ledger.acked) {
    for (const [time, ackedAt] of list) {
      acknowledged++;
      const key = `${uniqueId}|${time}`;
      if (acked.has(key)) continue;
      acked.add(key);
      if (!have.has(key)) lost.push({ uniqueId, time, ackedAt });
    }
  }
  let storedUnacknowledged = 0;
  for (const k of have) if (!acked.has(k)) storedUnacknowledged++;
  lost.sort((a, b) => a.ackedAt - b.ackedAt || a.time - b.time);
  return { acknowledged, acknowledgedDistinct: acked.size, stored: stored.length, lost, storedUnacknowledged };
}
