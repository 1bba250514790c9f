// The gateways' JSON batch (POST /api/v1/ingest/positions with the device's token): the fixes the
// device holds, up to 100 a request, acknowledged by a 200 whose answer names the refused ones (a
// gateway does not resend those: the server will never take them).
import { ANSWER_TIMEOUT_MS, fetchFailure, type DeviceLink, type SendOutcome, type Target } from './device-link.ts';
import type { Fix } from './truck-motion.ts';

/** A batch item as a gateway sends it (speed km/h, odometer metres). */
export const batchItemOf = (f: Fix) => ({
  fixTime: new Date(f.time).toISOString(),
  latitude: f.lat,
  longitude: f.lon,
  speed: f.speedKmh,
  course: f.course,
  altitude: f.altitudeM,
  accuracy: 5,
  ignition: f.ignition,
  odometer: f.odometerM,
  fuelLevel: f.fuelPct,
});

export class BatchLink implements DeviceLink {
  readonly protocol = 'batch' as const;
  readonly maxPerSend = 100;

  constructor(
    private readonly target: Target,
    private readonly token: string,
  ) {}

  /** A gateway's batch is one HTTP request: the connection fault is the OsmAnd and Teltonika devices'. */
  cutNextSend(): void {}

  async send(fixes: readonly Fix[]): Promise<SendOutcome> {
    try {
      const res = await fetch(`${this.target.apiUrl}/api/v1/ingest/positions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
        body: JSON.stringify({ positions: fixes.map(batchItemOf) }),
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
      const text = await res.text();
      if (res.status !== 200) return { ok: false, cause: `HTTP ${res.status}` };
      const body = JSON.parse(text) as { rejected: Array<{ index: number; message: string }> };
      return { ok: true, acked: fixes.length, refused: body.rejected };
    } catch (err) {
      return { ok: false, cause: fetchFailure(err) };
    }
  }

  close(): void {}
}
