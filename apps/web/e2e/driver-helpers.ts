import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { withVinCheckDigit } from '@fleet/api-contract/vin';
import { readOutbox, signIn } from './helpers.ts';
import { ADMIN } from './registry-helpers.ts';

// The driver's side (issue 16) needs drivers with a sign-in, their records and unidentified driving
// on a truck. Everything is made through the API as the demo admin, each test with its own driver.

const HOUR = 3_600_000;
export const DRIVER_PASSWORD = 'Driver#E2e2026';
let serial = 0;
const unique = () => `${Date.now().toString(36)}${++serial}`;

export interface DriverAccount {
  email: string;
  password: string;
  driver: { id: string; firstName: string; lastName: string; licenseNumber: string };
}

/** The demo organization through the API as its admin. */
export async function officeApi(request: APIRequestContext) {
  const res = await request.post('/api/v1/auth/authenticate', { data: ADMIN });
  expect(res.ok()).toBe(true);
  const { accessToken, user } = (await res.json()) as { accessToken: string; user: { organization: { id: string } } };
  const headers = { authorization: `Bearer ${accessToken}` };
  const org = `/api/v1/organizations/${user.organization.id}`;
  const ok = async <T>(r: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<T> => {
    expect(r.status(), await r.text()).toBe(status);
    return (await r.json()) as T;
  };
  return {
    org,
    headers,
    /** A driver invited through the driver form, who chose a password from the invitation e-mail. */
    async driverAccount(over: Record<string, unknown> = {}): Promise<DriverAccount> {
      const id = unique();
      const email = `e2e.driver.${id}@demofreight.test`;
      const driver = await ok<DriverAccount['driver']>(
        await request.post(`${org}/drivers`, {
          headers,
          data: {
            firstName: 'Dana',
            lastName: `Rivera${id.slice(-4)}`,
            email,
            invite: true,
            licenseNumber: `E2E${id.toUpperCase()}`,
            licenseState: 'IL',
            homeTimeZone: 'America/Chicago',
            personalConveyanceAllowed: true,
            yardMovesAllowed: true,
            ...over,
          },
        }),
        201,
      );
      const mail = await readOutbox(email);
      const token = /create-new-password\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
      expect((await request.post('/api/v1/auth/create-new-password', { data: { token, password: DRIVER_PASSWORD } })).status()).toBe(204);
      return { email, password: DRIVER_PASSWORD, driver };
    },
    async importPeriods(driverId: string, periods: Array<{ status: string; start: string; end: string }>) {
      return ok<{ logs: Array<{ id: string; date: string }> }>(
        await request.post(`${org}/drivers/${driverId}/hos_log/import`, { headers, data: { source: 'E2E', periods } }),
        201,
      );
    },
    async logDay(logId: string) {
      return ok<{ id: string; events: Array<{ id: string; status: string | null; at: string; eventType: number }> }>(
        await request.get(`${org}/hos_log/${logId}`, { headers }),
      );
    },
    async proposeEdit(driverId: string, logId: string, eventId: string, body: { status: string; at: string; annotation: string }) {
      return ok<{ id: string }>(await request.put(`${org}/drivers/${driverId}/hos_log/${logId}/hos_event/${eventId}`, { headers, data: body }));
    },
    async proposals(driverId: string) {
      return (
        await ok<{ content: Array<{ id: string; state: string; annotation: string }> }>(
          await request.get(`${org}/drivers/${driverId}/hos_log/proposals`, { headers }),
        )
      ).content;
    },
    async vehicle(): Promise<{ id: string; unitNumber: string }> {
      const n = String(100000 + Math.floor(Math.random() * 899999));
      const vin = withVinCheckDigit(`4V4NC9EH0PA${n}`);
      return ok<{ id: string; unitNumber: string }>(
        await request.post(`${org}/assets`, {
          headers,
          data: { type: 'VEHICLE', unitNumber: `E${unique().slice(-6)}`, vin, make: 'Volvo', model: 'VNL', year: 2023, fuelType: 'DIESEL' },
        }),
        201,
      );
    },
    async assign(vehicleId: string, driverId: string) {
      await ok<unknown>(await request.put(`${org}/assets/${vehicleId}/driver/${driverId}`, { headers }));
    },
    async unidentified(vehicleId: string) {
      return (
        await ok<{ content: Array<{ id: string; state: string; end: string | null }> }>(
          await request.get(`${org}/hos_log/unidentified?assetId=${vehicleId}`, { headers }),
        )
      ).content;
    },
    /**
     * Drives a truck with nobody assigned, as its tracker reports it over OsmAnd: 4 minutes at 90 km/h
     * from now, then stopped for 5 minutes, so automatic duty status records unidentified Driving and
     * the On duty 5 minutes into the stop. Fixes may not predate the tracker's pairing (they would
     * belong to no vehicle) nor lie more than 10 minutes ahead, hence a short drive starting now.
     */
    async unidentifiedDrive(vehicleId: string): Promise<void> {
      const uniqueId = `e2e-${unique()}`;
      const gw = await ok<{ id: string }>(await request.post(`${org}/gateways`, { headers, data: { uniqueId, name: `Tracker ${uniqueId}` } }), 201);
      await ok<unknown>(await request.post(`${org}/gateways/${gw.id}/pair/${vehicleId}`, { headers }));
      const start = Date.now() + 2_000;
      let lon = -88;
      const fixes: Array<[number, number]> = [];
      for (let s = 0; s <= 240; s += 20) fixes.push([start + s * 1000, 90]);
      for (let s = 260; s <= 580; s += 40) fixes.push([start + s * 1000, 0]);
      for (const [t, kmh] of fixes) {
        const r = await request.get(
          `/api/v1/ingest/osmand?id=${uniqueId}&timestamp=${Math.floor(t / 1000)}&lat=41.6&lon=${lon.toFixed(5)}&speed=${(kmh / 1.852).toFixed(2)}`,
        );
        expect(r.status()).toBe(200);
        lon += ((kmh / 3600) * 20) / 83;
      }
      await expect.poll(async () => (await this.unidentified(vehicleId)).filter((s) => s.end !== null).length, { timeout: 20_000 }).toBeGreaterThan(0);
    },
    /** The driver's records of today through the office's log day. */
    async today(driverId: string) {
      return ok<{ events: Array<{ recordOrigin: string; status: string | null; recordStatus: string }> }>(
        await request.get(`${org}/drivers/${driverId}/hos_log/current-day`, { headers }),
      );
    },
  };
}

/** The wall clock of an instant in Chicago as a datetime-local value. */
export function chicagoInput(ms: number): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Chicago',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}
/** Time since midnight in a zone: by default Chicago, the demo driver's home terminal. */
export function sinceMidnight(timeZone = 'America/Chicago'): number {
  const [h, m, sec] = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
    .format(new Date())
    .split(':')
    .map(Number);
  return (h! * 3600 + m! * 60 + sec!) * 1000;
}
/** "1:27 PM": how the log writes a time in the driver's zone. */
export const chicagoClock = (ms: number) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', hour: 'numeric', minute: '2-digit' }).format(new Date(ms));
/** Waits until `spanMs` from now stays within one day of Chicago (the demo organization's zone), so records made meanwhile share a log day. */
export async function clearOfMidnight(spanMs: number): Promise<void> {
  const toMidnight = 24 * 3_600_000 - sinceMidnight();
  if (toMidnight < spanMs) await new Promise((r) => setTimeout(r, toMidnight + 2_000));
}

/** Contiguous [status, hours] periods ending at `endMs`. */
export function periodsUntil(endMs: number, spec: Array<[string, number]>) {
  let t = endMs - spec.reduce((s, [, h]) => s + h, 0) * HOUR;
  return spec.map(([status, hours]) => {
    const p = { status, start: new Date(t).toISOString(), end: new Date(t + hours * HOUR).toISOString() };
    t += hours * HOUR;
    return p;
  });
}

/**
 * Signs a driver in (through the API: offline.spec.ts and messages.spec.ts drive the form on a phone)
 * and opens their screen.
 */
export async function driverLogin(page: Page, a: DriverAccount): Promise<void> {
  await signIn(page, a);
  await page.goto('/driver');
  await expect(page.getByTestId('current-status')).toBeVisible();
}

/** "H:MM" -> minutes. */
export const minutesOf = (hm: string) => {
  const [h, m] = hm.trim().split(':');
  return Number(h) * 60 + Number(m);
};
