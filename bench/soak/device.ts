// One simulated device of the soak: it records a fix every interval (the fix's time is when it was
// recorded, whatever happens to the link), and sends what it holds, oldest first, one send at a time:
// the next only once the previous was acknowledged. A send without an acknowledgement is sent again
// after a pause (1 s, doubling up to 8 s), exactly as a tracker, a phone or Traccar's forwarder does.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Ledger, Protocol } from './accounting.ts';
import { BatchLink } from './batch-link.ts';
import type { DeviceLink, Target } from './device-link.ts';
import { OsmandLink } from './osmand-link.ts';
import { TeltonikaLink } from './teltonika-link.ts';
import { TraccarLink } from './traccar-link.ts';
import { fixAt, type Fix, type TruckRoute } from './truck-motion.ts';

export interface DeviceSpec {
  index: number;
  uniqueId: string;
  protocol: Protocol;
  route: TruckRoute;
  /** The device's batch token (every device has one; the batch devices use it). */
  token: string;
  /** Offset of its fixes within the interval, so the fleet's sends spread evenly (whole seconds). */
  offsetMs: number;
}

/** The traffic window every device records in; fixes at `start + offset + k × interval` before `end`. */
export interface Window {
  start: number;
  end: number;
  intervalMs: number;
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 8000;

export function linkFor(spec: DeviceSpec, target: Target, orgIngestToken: string): DeviceLink {
  switch (spec.protocol) {
    case 'osmand':
      return new OsmandLink(target, spec.uniqueId);
    case 'teltonika':
      return new TeltonikaLink(target, spec.uniqueId);
    case 'batch':
      return new BatchLink(target, spec.token);
    case 'traccar':
      return new TraccarLink(target, spec.uniqueId, orgIngestToken);
  }
}

export class SimDevice {
  private readonly held: Fix[] = [];
  private k = 0;

  constructor(
    readonly spec: DeviceSpec,
    readonly link: DeviceLink,
    private readonly ledger: Ledger,
    private readonly window: Window,
  ) {}

  /** Fixes recorded and not acknowledged yet. */
  get holding(): number {
    return this.held.length;
  }

  private nextTime(): number {
    return this.window.start + this.spec.offsetMs + this.k * this.window.intervalMs;
  }

  /** Records every fix due by `now` (within the window). */
  private record(now: number): void {
    for (let t = this.nextTime(); t <= now && t < this.window.end; t = this.nextTime()) {
      this.held.push(fixAt(this.spec.route, t - this.window.start, t));
      this.k++;
    }
  }

  /**
   * Records and sends until every fix of the window is acknowledged, or `stop` aborts (the end of the
   * drain after the window: what is still held then was never acknowledged).
   */
  async run(stop: AbortSignal): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    while (!stop.aborted) {
      const now = Date.now();
      this.record(now);
      if (this.held.length === 0) {
        const next = this.nextTime();
        if (next >= this.window.end) return;
        if (!(await pause(next - now, stop))) return;
        continue;
      }
      const sending = this.held.slice(0, this.link.maxPerSend);
      this.ledger.sent(this.link.protocol);
      const out = await this.link.send(sending);
      if (!out.ok) {
        this.ledger.failed(this.link.protocol, out.cause);
        if (!(await pause(retryMs * (0.75 + Math.random() / 2), stop))) return;
        retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
        continue;
      }
      retryMs = FIRST_RETRY_MS;
      const refused = new Map((out.refused ?? []).map((r) => [r.index, r.message]));
      const taken = sending.slice(0, out.acked);
      for (const [i, message] of refused) this.ledger.refusedFix(this.spec.uniqueId, taken[i]!.time, message);
      this.ledger.acknowledged(
        this.spec.uniqueId,
        taken.filter((_, i) => !refused.has(i)).map((f) => f.time),
      );
      this.held.splice(0, out.acked);
    }
  }
}

/** Waits `ms`; false when `stop` aborted meanwhile. */
async function pause(ms: number, stop: AbortSignal): Promise<boolean> {
  try {
    await sleep(Math.max(0, ms), undefined, { signal: stop });
    return true;
  } catch {
    return false;
  }
}
