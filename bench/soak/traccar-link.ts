// Traccar's JSON forwarding (POST /api/v1/ingest/traccar with the organization's token): a Traccar
// server posting each position it decoded, `{ position, device }` with speed in knots; acknowledged
// by a 200, resent otherwise (forward.retry).
import { DEFAULT_TANK_CAPACITY_L } from '@fleet/api-contract/ifta-checks';
import { KNOTS_TO_KMH } from '@fleet/geo';
import { ANSWER_TIMEOUT_MS, fetchFailure, type DeviceLink, type SendOutcome, type Target } from './device-link.ts';
import type { Fix } from './truck-motion.ts';

/** Traccar's forwarded body for a fix (model/Position.java as Jackson writes it). */
export function traccarBody(uniqueId: string, f: Fix): object {
  const time = new Date(f.time).toISOString();
  return {
    position: {
      protocol: 'osmand',
      deviceTime: time,
      fixTime: time,
      valid: true,
      latitude: f.lat,
      longitude: f.lon,
      altitude: f.altitudeM,
      speed: f.speedKmh / KNOTS_TO_KMH,
      course: f.course,
      accuracy: 5,
      // Traccar's fuel is litres: through the 300 gal tank every soak truck has by default.
      attributes: { ignition: f.ignition, odometer: f.odometerM, motion: f.speedKmh > 0, fuel: Math.round(f.fuelPct * DEFAULT_TANK_CAPACITY_L) / 100 },
    },
    device: { uniqueId, name: uniqueId, status: 'online' },
  };
}

export class TraccarLink implements DeviceLink {
  readonly protocol = 'traccar' as const;
  readonly maxPerSend = 1;

  constructor(
    private readonly target: Target,
    private readonly uniqueId: string,
    private readonly orgToken: string,
  ) {}

  /** Traccar forwards over its own HTTP client: the connection fault is the OsmAnd and Teltonika devices'. */
  cutNextSend(): void {}

  async send(fixes: readonly Fix[]): Promise<SendOutcome> {
    try {
      const res = await fetch(`${this.target.apiUrl}/api/v1/ingest/traccar`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: this.orgToken },
        body: JSON.stringify(traccarBody(this.uniqueId, fixes[0]!)),
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
      await res.arrayBuffer();
      return res.status === 200 ? { ok: true, acked: 1 } : { ok: false, cause: `HTTP ${res.status}` };
    } catch (err) {
      return { ok: false, cause: fetchFailure(err) };
    }
  }

  close(): void {}
}
