import { expect, type APIRequestContext } from '@playwright/test';
import { ADMIN } from './registry-helpers.ts';

export const HOUR = 3_600_000;
type Status = 'OFF' | 'SB' | 'D' | 'ON';

/** Contiguous duty periods from `startMs`, each `[status, hours]`. */
export function periodsFrom(startMs: number, spec: Array<[Status, number]>): Array<{ status: Status; start: string; end: string }> {
  let t = startMs;
  return spec.map(([status, hours]) => {
    const p = { status, start: new Date(t).toISOString(), end: new Date(t + hours * HOUR).toISOString() };
    t += hours * HOUR;
    return p;
  });
}

/** Periods that end at `endMs`, each `[status, hours]`: the last status goes on after it. */
export function periodsUntil(endMs: number, spec: Array<[Status, number]>) {
  return periodsFrom(endMs - spec.reduce((s, [, h]) => s + h, 0) * HOUR, spec);
}

/**
 * The demo organization through the API as its admin: makes drivers and imports their duty
 * periods, since the demo fleet holds no HoS records of its own in these tests.
 */
export async function hosApi(request: APIRequestContext) {
  const res = await request.post('/api/v1/auth/authenticate', { data: ADMIN });
  expect(res.ok()).toBe(true);
  const { accessToken, user } = (await res.json()) as { accessToken: string; user: { organization: { id: string } } };
  const headers = { authorization: `Bearer ${accessToken}` };
  const org = `/api/v1/organizations/${user.organization.id}`;
  return {
    driver: async (firstName: string, lastName: string, extra: Record<string, unknown> = {}): Promise<{ id: string; firstName: string; lastName: string }> => {
      const r = await request.post(`${org}/drivers`, {
        headers,
        data: {
          firstName,
          lastName,
          licenseNumber: `E2E${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`,
          licenseState: 'IL',
          homeTimeZone: 'America/Chicago',
          ...extra,
        },
      });
      expect(r.status(), await r.text()).toBe(201);
      return r.json();
    },
    importPeriods: async (driverId: string, periods: Array<{ status: Status; start: string; end: string }>) => {
      const r = await request.post(`${org}/drivers/${driverId}/hos_log/import`, { headers, data: { source: 'E2E', periods } });
      expect(r.status(), await r.text()).toBe(201);
    },
    violations: async (query: string) => {
      const r = await request.get(`${org}/violations?${query}`, { headers });
      expect(r.ok(), await r.text()).toBe(true);
      return ((await r.json()) as { content: Array<{ rule: string; start: string; logId: string }> }).content;
    },
  };
}
