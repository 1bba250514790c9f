import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchResultSchema } from '@fleet/api-contract';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { registryActors, vehicleBody } from '../../test/registry.ts';
import { matchOf } from './search-match.ts';

// Issue 28: each search result says why it matched (Ctrl+K shows "unit number 117").

describe('matchOf', () => {
  it('names the field holding the text, with its value', () => {
    expect(
      matchOf('117', [
        ['unit number', '117'],
        ['VIN', '1XKYD49X7NJ000117'],
      ]),
    ).toEqual({ field: 'unit number', value: '117' });
    expect(
      matchOf('NJ00', [
        ['unit number', '117'],
        ['VIN', '1XKYD49X7NJ000117'],
      ]),
    ).toEqual({ field: 'VIN', value: '1XKYD49X7NJ000117' });
  });

  it('names both fields when the text runs over two, as the stored search text joins them', () => {
    expect(
      matchOf('kenworth t6', [
        ['unit number', '117'],
        ['plate', null],
        ['make', 'Kenworth'],
        ['model', 'T680'],
      ]),
    ).toEqual({ field: 'make and model', value: 'Kenworth T680' });
  });

  it('answers null when no field holds the text', () => {
    expect(
      matchOf('volvo', [
        ['unit number', '117'],
        ['make', 'Kenworth'],
      ]),
    ).toBeNull();
    expect(matchOf('  ', [['unit number', '117']])).toBeNull();
  });
});

describe('GET /search match', () => {
  let t: TestContext;
  let a: Awaited<ReturnType<typeof registryActors>>;
  beforeAll(async () => {
    t = await createTestApp();
    a = await registryActors(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });
  const search = async (q: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/search?q=${encodeURIComponent(q)}&limit=20`, headers: a.admin });
    expect(res.statusCode, res.body).toBe(200);
    return searchResultSchema.parse(res.json()).groups;
  };

  it('says which field of each hit holds the text: unit number, VIN, device id, driver and user fields, group name', async () => {
    const v = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/organizations/${a.orgId}/assets`,
        headers: a.admin,
        payload: vehicleBody({ unitNumber: 'MATCH-117' }),
      })
    ).json();
    const byUnit = (await search('match-117')).find((g) => g.tag === 'vehicle')!.hits.find((h) => h.id === v.id)!;
    expect(byUnit.match).toEqual({ field: 'unit number', value: 'MATCH-117' });
    const vinPart = v.vin.slice(10, 16);
    const byVin = (await search(vinPart)).find((g) => g.tag === 'vehicle')!.hits.find((h) => h.id === v.id)!;
    expect(byVin.match).toEqual({ field: 'VIN', value: v.vin });

    const devices = (await search('demo-truck-1')).find((g) => g.tag === 'device')!;
    expect(devices.hits.length).toBeGreaterThan(0);
    for (const h of devices.hits) expect(h.match?.field).toBe('device id');

    const all = await search('demofreight');
    const users = all.find((g) => g.tag === 'user')!;
    expect(users.hits[0]!.match).toEqual({ field: 'email', value: expect.stringContaining('@demofreight.test') });
    const region = (await search('east')).find((g) => g.tag === 'group')!;
    expect(region.hits[0]!.match).toEqual({ field: 'name', value: 'East region' });
    // Every hit of every group carries its reason.
    for (const g of [...all, ...(await search('10'))]) for (const h of g.hits) expect(h.match, `${g.tag} ${h.title}`).not.toBeNull();
  });
});
