import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DVIR_ITEMS, dvirSchema, type Dvir } from '@fleet/api-contract';
import { createTestApp, expectFieldErrors, type TestContext } from '../../test/helpers.ts';
import { registryActors, trailerBody, vehicleBody } from '../../test/registry.ts';
import { invitedDriver as invitedDriverOf } from '../../test/members.ts';
import { pdfPageCount, pdfText } from '../../test/pdf.ts';

// Exports of an inspection report (CSV, and the one-page PDF an officer reads) and of a unit's
// maintenance history (issue 31, decision 0160), through HTTP on the real database.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
beforeAll(async () => {
  t = await createTestApp();
  a = await registryActors(t.app);
});
afterAll(async () => {
  await t?.close();
});

type Headers = Record<string, string>;
const org = (rest: string, orgId = a.orgId) => `/api/v1/organizations/${orgId}${rest}`;
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const send = (method: 'POST' | 'PUT', url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const hasImage = (pdf: Buffer) => /\/Subtype \/Image/.test(pdf.toString('latin1'));

/** A valid 1x1 PNG with transparency (a drawn signature); `BROKEN` has the signature of one and corrupt pixel data. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const BROKEN = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1e2f1b40000000049454e44ae426082', 'hex'),
]);
async function uploadSignature(headers: Headers, data = PNG): Promise<string> {
  const boundary = `----export${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="signature.png"\r\nContent-Type: image/png\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: org('/dvirs/images'),
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

const invitedDriver = () => invitedDriverOf(t.app, t.dataDir, a.orgId, a.admin, { homeTimeZone: 'America/Denver' });
async function newAsset(body: Record<string, unknown>): Promise<{ id: string; unitNumber: string }> {
  const res = await send('POST', org('/assets'), a.admin, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; unitNumber: string };
}

let driver: Awaited<ReturnType<typeof invitedDriver>>;
let other: Awaited<ReturnType<typeof invitedDriver>>;
let truck: { id: string; unitNumber: string };
let trailer: { id: string; unitNumber: string };
let dvir: Dvir;
beforeAll(async () => {
  [driver, other] = [await invitedDriver(), await invitedDriver()];
  [truck, trailer] = [await newAsset(vehicleBody({ odometerKm: 160934.4 })), await newAsset(trailerBody())];
  expect((await send('PUT', org(`/assets/${truck.id}/driver/${driver.driver.id}`), a.admin)).statusCode).toBe(200);
  const items = [
    ...DVIR_ITEMS.map((i) =>
      i.code === 'LIGHTING' ? { item: i.code, ok: false, note: '=HYPERLINK("x") left marker lamp out', safety: true } : { item: i.code, ok: true },
    ),
    ...DVIR_ITEMS.filter((i) => i.trailer).map((i) => ({ item: i.code, assetId: trailer.id, ok: true })),
  ];
  const signature = await uploadSignature(driver.headers);
  const res = await send('POST', org('/dvirs'), driver.headers, {
    assetId: truck.id,
    trailerIds: [trailer.id],
    kind: 'POST_TRIP',
    items,
    location: 'Denver terminal',
    signature: { name: driver.name, imageId: signature },
  });
  expect(res.statusCode, res.body).toBe(201);
  dvir = dvirSchema.parse(res.json());
  const defect = dvir.defects[0]!;
  const order = await send('POST', org('/work-orders'), a.admin, {
    assetId: truck.id,
    title: 'Replace marker lamp',
    defectIds: [defect.id],
    assignee: 'Bay 2',
    laborHours: 0.5,
    cost: 42.5,
  });
  expect(order.statusCode, order.body).toBe(201);
  const cert = await send('PUT', org(`/defects/${defect.id}`), a.admin, {
    status: 'REPAIRED',
    certification: 'New lamp fitted',
    signature: { name: 'Mike Mechanic' },
  });
  expect(cert.statusCode, cert.body).toBe(200);
  const review = await send('POST', org(`/dvirs/${dvir.id}/review`), driver.headers, { signature: { name: driver.name } });
  expect(review.statusCode, review.body).toBe(200);
});

describe('the inspection report export', () => {
  it('is a CSV of the report: carrier, units, odometer in miles, the zone, each item, the certification, formula cells defused', async () => {
    const res = await get(org(`/dvirs/${dvir.id}/export?format=csv`), a.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`attachment; filename="inspection-${truck.unitNumber}-\\d{4}-\\d{2}-\\d{2}-post-trip\\.csv"`),
    );
    const csv = res.body;
    expect(csv).toContain('Carrier,Demo Freight');
    expect(csv).toContain('Inspection,Post-trip');
    expect(csv).toContain('Time zone,America/Denver');
    expect(csv).toMatch(/Inspected at,"[A-Z][a-z]{2} \d+, \d{4}, \d{2}:\d{2} M[SD]T"/);
    expect(csv).toContain(`Vehicle,${truck.unitNumber}`);
    expect(csv).toContain(`Trailers,${trailer.unitNumber}`);
    expect(csv).toContain('Odometer (mi),100000.0');
    expect(csv).toContain('Location,Denver terminal');
    expect(csv).toContain(`Reviewed by next driver,"${driver.name} on `);
    expect(csv).toContain(`Vehicle ${truck.unitNumber},Parking brake,Pass`);
    expect(csv).toContain(`Trailer ${trailer.unitNumber},Tires,Pass`);
    // A note starting with "=" is written so a spreadsheet shows it as text.
    expect(csv).toMatch(
      new RegExp(
        `Vehicle ${truck.unitNumber},Lighting devices and reflectors,Defect,Yes,"'=HYPERLINK\\(""x""\\) left marker lamp out",0,Repaired,Mike Mechanic,"[A-Z][a-z]{2} \\d+, \\d{4}, \\d{2}:\\d{2} M[SD]T",New lamp fitted,Replace marker lamp`,
      ),
    );
  });

  it('is a one-page PDF form with the carrier, units, odometer, zone, items, both signatures (the drawn one as an image) and the certification', async () => {
    const res = await get(org(`/dvirs/${dvir.id}/export?format=pdf`), a.admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/\.pdf"$/);
    const pdf = res.rawPayload;
    expect(pdfPageCount(pdf)).toBe(1);
    expect(hasImage(pdf)).toBe(true);
    const text = pdfText(pdf);
    for (const words of [
      'Driver Vehicle Inspection Report',
      'Demo Freight',
      'Post-trip',
      'America/Denver',
      truck.unitNumber,
      trailer.unitNumber,
      '100,000.0 mi',
      'Denver terminal',
      'Parking brake',
      'DEFECT',
      'left marker lamp out',
      'Mike Mechanic',
      'New lamp fitted',
      driver.name,
      'Reviewed',
    ]) {
      expect(text.replace(/\s+/g, ' '), words).toContain(words);
    }
  });

  it('stays one page with three trailers and many of the organization’s own items; a corrupt drawn signature prints as the typed name', async () => {
    const trailers = [trailer, await newAsset(trailerBody()), await newAsset(trailerBody())];
    const items = [
      ...DVIR_ITEMS.map((i) => ({
        item: i.code,
        ok: false,
        note: `Worn ${i.code.toLowerCase()} needs a look by the shop before the next trip out`,
        safety: false,
      })),
      ...trailers.flatMap((tr) => DVIR_ITEMS.filter((i) => i.trailer).map((i) => ({ item: i.code, assetId: tr.id, ok: true }))),
      ...Array.from({ length: 30 }, (_, n) => ({ item: `Own item ${n + 1}`, ok: true })),
    ];
    const res = await send('POST', org('/dvirs'), driver.headers, {
      assetId: truck.id,
      trailerIds: trailers.map((x) => x.id),
      kind: 'PRE_TRIP',
      items,
      signature: { name: driver.name, imageId: await uploadSignature(driver.headers, BROKEN) },
    });
    expect(res.statusCode, res.body).toBe(201);
    const pdf = (await get(org(`/dvirs/${(res.json() as { id: string }).id}/export?format=pdf`), a.admin)).rawPayload;
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    expect(text).toContain('more items: the CSV export lists every item');
    expect(text).toContain(`${driver.name} (typed)`);
    expect(hasImage(pdf)).toBe(false);
  });

  it('is downloaded by the driver of the vehicle, as the report is read; 404 to another driver and across organizations; 400 on a bad format', async () => {
    expect((await get(org(`/dvirs/${dvir.id}/export?format=pdf`), driver.headers)).statusCode).toBe(200);
    expect((await get(org(`/dvirs/${dvir.id}/export`), other.headers)).statusCode).toBe(404);
    expect((await get(org(`/dvirs/${dvir.id}/export`, a.otherOrgId), a.other)).statusCode).toBe(404);
    const bad = await get(org(`/dvirs/${dvir.id}/export?format=xls`), a.admin);
    expectFieldErrors(bad.json(), 400, { format: 'format must be csv or pdf' });
  });
});

describe('the maintenance history export', () => {
  it("lists the unit's inspections, defects with their certification, work orders and services, newest first", async () => {
    const schedule = await send('POST', org('/maintenance-schedules'), a.admin, { assetId: truck.id, name: 'Oil change', everyMiles: 25000 });
    expect(schedule.statusCode, schedule.body).toBe(201);
    const res = await get(org(`/maintenance/history/export?assetId=${truck.id}&format=csv`), a.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="maintenance-history-${truck.unitNumber}.csv"`);
    const lines = res.body.split('\r\n');
    const table = lines.slice(lines.indexOf('Date,Type,Summary,Status,Detail') + 1).filter(Boolean);
    const types = table.map((l) => l.split(',').find((c) => ['Inspection', 'Defect', 'Work order', 'Service'].includes(c)));
    expect(types.slice(0, 1)).toEqual(['Service']);
    expect(new Set(types)).toEqual(new Set(['Service', 'Work order', 'Defect', 'Inspection']));
    expect(res.body).toContain(`Post-trip by ${driver.name}`);
    expect(res.body).toMatch(
      /Lighting devices and reflectors \(affects safe operation\).*,Repaired,"certified by Mike Mechanic on .*: New lamp fitted; work order: Replace marker lamp"/,
    );
    expect(res.body).toContain('Replace marker lamp,Open,by Bay 2; 0.5 h labour; cost 42.50');
    expect(res.body).toContain('Oil change,Schedule started,"Odometer 100,000.0 mi"');
    // The trailer's history holds the report it was inspected on.
    const forTrailer = await get(org(`/maintenance/history/export?assetId=${trailer.id}`), a.admin);
    expect(forTrailer.body).toContain(`(trailer of vehicle ${truck.unitNumber})`);
  });

  it('is a PDF too; 404 for a unit of another organization; 400 without a unit or with a bad format; needs the maintenance codes', async () => {
    const pdf = await get(org(`/maintenance/history/export?assetId=${truck.id}&format=pdf`), a.admin);
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf.rawPayload).replace(/\s+/g, ' ')).toContain(`Maintenance history: unit ${truck.unitNumber}`);
    expect((await get(org(`/maintenance/history/export?assetId=${truck.id}`, a.otherOrgId), a.other)).statusCode).toBe(404);
    expectFieldErrors((await get(org('/maintenance/history/export?format=pdf'), a.admin)).json(), 400, { assetId: '' });
    expectFieldErrors((await get(org(`/maintenance/history/export?assetId=${truck.id}&format=doc`), a.admin)).json(), 400, {
      format: 'format must be csv or pdf',
    });
    expect((await get(org(`/maintenance/history/export?assetId=${truck.id}`), driver.headers)).statusCode).toBe(403);
  });
});
