import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetPageSchema, driverPageSchema, withVinCheckDigit } from '@fleet/api-contract';
import { enableListIndex } from '../../list-index/list-index.ts';
import { BROAD_SEARCH_MATCHES } from '../../http/paging.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { driverBody, registryActors } from '../../test/registry.ts';

// Searched list pages come from the in-memory index (decision 0083) or, without it, from SQL that
// takes one of two paths by the number of matches (decision 0047): above BROAD_SEARCH_MATCHES the
// page walks the sort index, below it the matches are sorted. All must give the same exact
// totalElements, order and paging; the stored search text must follow edits.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
const N = BROAD_SEARCH_MATCHES + 10;
const pad = (i: number) => String(i).padStart(4, '0');

beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
  const drivers = ['First name,Last name,Email,Employee id,Licence number,Licence state,Licence class,Home time zone'];
  const vehicles = ['Unit number,VIN,Make,Model,Year,Plate,Plate state,Fuel type,IFTA qualified,Odometer (mi)'];
  for (let i = 0; i < N; i++) {
    drivers.push(`Pat,Broad${pad(i)},pat.broad${i}@broad.test,BR${i},BRD${pad(i)},IL,A,America/Chicago`);
    vehicles.push(
      `WIDE${pad(i)},${withVinCheckDigit(`1XKYD49X0NW${String(i).padStart(6, '0')}`)},Widecorp,W9,${2015 + (i % 10)},WP${pad(i)},IL,DIESEL,yes,1000`,
    );
  }
  for (const [kind, csv] of [
    ['drivers', drivers],
    ['vehicles', vehicles],
  ] as const) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/imports/${kind}`,
      headers: a.admin,
      payload: { csv: csv.join('\n') },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported).toBe(N);
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const drivers = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/drivers?${query}`, headers: a.admin });
  expect(res.statusCode, res.body).toBe(200);
  return driverPageSchema.parse(res.json());
};
const vehicles = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.orgId}/assets?type=VEHICLE&${query}`, headers: a.admin });
  expect(res.statusCode, res.body).toBe(200);
  return assetPageSchema.parse(res.json());
};

describe.each([
  ['the in-memory index', 'idx', 300_000],
  ['SQL', 'sql', 0],
])('searched list pages, broad and narrow, through %s', (_path, tag, indexRows) => {
  beforeAll(() => enableListIndex(t.app.db, indexRows));

  it('pages a driver search matching more rows than the broad threshold, exactly counted and in order', async () => {
    const p2 = await drivers('search=broad.test&sort=lastName,asc&size=15&page=2');
    expect(p2).toMatchObject({ totalElements: N, totalPages: Math.ceil(N / 15), page: 2, size: 15 });
    expect(p2.content.map((d) => d.lastName)).toEqual(Array.from({ length: 15 }, (_, k) => `Broad${pad(30 + k)}`));
    const desc = await drivers('search=broad.test&sort=lastName,desc&size=15');
    expect(desc.content.map((d) => d.lastName)).toEqual(Array.from({ length: 15 }, (_, k) => `Broad${pad(N - 1 - k)}`));
    // A sort without an index of its own takes the same branch.
    const byLicence = await drivers('search=broad.test&sort=licenseNumber,desc&size=15');
    expect(byLicence.totalElements).toBe(N);
    expect(byLicence.content.map((d) => d.licenseNumber)).toEqual(Array.from({ length: 15 }, (_, k) => `BRD${pad(N - 1 - k)}`));
    const last = await drivers(`search=broad.test&size=15&page=${Math.ceil(N / 15) - 1}`);
    expect(last.content).toHaveLength(N % 15 || 15);
    const past = await drivers('search=broad.test&size=15&page=500');
    expect(past).toMatchObject({ content: [], totalElements: N });
  });

  it('sorts a narrow driver search and counts it the same way', async () => {
    const ten = await drivers('search=broad000&sort=lastName,desc');
    expect(ten.totalElements).toBe(10);
    expect(ten.content.map((d) => d.lastName)).toEqual(Array.from({ length: 10 }, (_, k) => `Broad${pad(9 - k)}`));
    const one = await drivers('search=BRD0007');
    expect(one.content.map((d) => d.email)).toEqual(['pat.broad7@broad.test']);
  });

  it('pages a broad and a narrow vehicle search by unit and by year', async () => {
    const p1 = await vehicles('search=widecorp&sort=unitNumber,asc&size=15&page=1');
    expect(p1).toMatchObject({ totalElements: N, totalPages: Math.ceil(N / 15) });
    expect(p1.content.map((v) => v.unitNumber)).toEqual(Array.from({ length: 15 }, (_, k) => `WIDE${pad(15 + k)}`));
    const byYear = await vehicles('search=widecorp&sort=year,desc&size=15');
    expect(byYear.totalElements).toBe(N);
    expect(byYear.content.every((v) => v.year === 2024)).toBe(true);
    expect(byYear.content.map((v) => v.id)).toEqual([...byYear.content.map((v) => v.id)].sort());
    const narrow = await vehicles('search=wide001&sort=unitNumber,desc');
    expect(narrow.content.map((v) => v.unitNumber)).toEqual(Array.from({ length: 10 }, (_, k) => `WIDE${pad(19 - k)}`));
    expect((await vehicles('search=wp0042')).content.map((v) => v.unitNumber)).toEqual(['WIDE0042']);
  });

  it('finds a driver by the new name after an edit and no longer by the old one', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${a.orgId}/drivers`,
      headers: a.admin,
      payload: driverBody({ lastName: `Quillfeather${tag}` }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect((await drivers(`search=quillfeather${tag}`)).content.map((d) => d.id)).toEqual([id]);
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organizations/${a.orgId}/drivers/${id}`,
      headers: a.admin,
      payload: driverBody({ lastName: `Thistledown${tag}` }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await drivers(`search=quillfeather${tag}`)).totalElements).toBe(0);
    expect((await drivers(`search=THISTLEDOWN${tag.toUpperCase()}`)).content.map((d) => d.id)).toEqual([id]);
  });
});
