// OsmAnd over HTTP to the OsmAnd port, as Traccar Client sends it: one fix per GET, in the query
// (speed in knots, epoch seconds); acknowledged by a 200. The cut: the same fix as a form POST whose
// body is half sent before the connection drops.
import { KNOTS_TO_KMH } from '@fleet/geo';
import { ANSWER_TIMEOUT_MS, fetchFailure, connectWritePartAndDestroy, type DeviceLink, type SendOutcome, type Target } from './device-link.ts';
import type { Fix } from './truck-motion.ts';

/** Traccar Client's query for a fix. */
export function osmandQuery(uniqueId: string, f: Fix): string {
  return new URLSearchParams({
    id: uniqueId,
    timestamp: String(Math.floor(f.time / 1000)),
    lat: String(f.lat),
    lon: String(f.lon),
    speed: (f.speedKmh / KNOTS_TO_KMH).toFixed(3),
    bearing: String(f.course),
    altitude: String(f.altitudeM),
    accuracy: '5',
    ignition: String(f.ignition),
    odometer: String(f.odometerM),
    fuelLevel: String(f.fuelPct),
  }).toString();
}

export class OsmandLink implements DeviceLink {
  readonly protocol = 'osmand' as const;
  readonly maxPerSend = 1;
  private cut = false;

  constructor(
    private readonly target: Target,
    private readonly uniqueId: string,
  ) {}

  cutNextSend(): void {
    this.cut = true;
  }

  async send(fixes: readonly Fix[]): Promise<SendOutcome> {
    const query = osmandQuery(this.uniqueId, fixes[0]!);
    if (this.cut) {
      this.cut = false;
      const head = `POST / HTTP/1.1\r\nHost: 127.0.0.1:${this.target.osmandPort}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(query)}\r\n\r\n`;
      // The head and half the body: the cut falls inside the body.
      await connectWritePartAndDestroy(this.target.osmandPort, Buffer.from(head + query), Buffer.byteLength(head) + Math.floor(query.length / 2));
      return { ok: false, cause: 'cut mid-packet (fault)' };
    }
    try {
      const res = await fetch(`http://127.0.0.1:${this.target.osmandPort}/?${query}`, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
      await res.arrayBuffer();
      return res.status === 200 ? { ok: true, acked: 1 } : { ok: false, cause: `HTTP ${res.status}` };
    } catch (err) {
      return { ok: false, cause: fetchFailure(err) };
    }
  }

  close(): void {}
}
