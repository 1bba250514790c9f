import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEldFile } from '@fleet/eld';
import { eldTransferSchema } from '@fleet/api-contract';
import { testConfig } from '../../config.ts';
import { runEldDiagnostics } from '../../jobs/eld-diagnostics.ts';
import { backfillDemoHistory, findDemoTrucks } from '../../seed/simulator/demo-fleet.ts';
import { seedDemoHos } from '../../seed/simulator/demo-hos.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { registryActors } from '../../test/registry.ts';
import { makeTestCertificates, type TestCertificates } from '../../test/fmcsa-certs.ts';
import { startFmcsaStandIn, type FmcsaStandIn } from '../../test/fmcsa-stand-in.ts';

// Our output files against something we did not write (issue 45): every demo driver's week, as the
// demo seeds it (positions, the records derived from them, certifications, edits, unidentified
// driving, the vehicles' diagnostics, engine power records), sent to the FMCSA stand-in: each passes
// its validator with no Error and no Warning, and our own parser reads it.

let t: TestContext;
let a: Awaited<ReturnType<typeof registryActors>>;
let certs: TestCertificates;
let standIn: FmcsaStandIn;

beforeAll(async () => {
  certs = makeTestCertificates();
  standIn = await startFmcsaStandIn({ certs });
  t = await createTestApp({
    eldTransfer: { ...testConfig().eldTransfer, url: standIn.url, clientCert: certs.clientCert, clientKey: certs.clientKey, ca: certs.ca },
  });
  a = await registryActors(t.app);
  const trucks = (await findDemoTrucks(t.app.db)).filter((x) => x.orgId === a.orgId);
  const now = Date.now();
  await backfillDemoHistory(t.app.db, trucks, now);
  await seedDemoHos(t.app.db, a.orgId, trucks, now - 7 * 86_400_000, now);
  await t.app.engineEvents.catchUp(now);
  await runEldDiagnostics(t.database, now);
}, 300_000);
afterAll(async () => {
  await t?.close();
  await standIn?.close();
  if (certs) fs.rmSync(certs.dir, { recursive: true, force: true });
});

describe("every demo driver's 8 days", () => {
  it('pass the stand-in with no Error or Warning, and our parser', async () => {
    const drivers = (
      (await t.database.db.execute(`select id, last_name from drivers where organization_id = '${a.orgId}' order by last_name` as never)) as unknown as {
        rows: Array<{ id: string; last_name: string }>;
      }
    ).rows;
    expect(drivers).toHaveLength(25);
    const found: string[] = [];
    const totals = { events: 0, annotations: 0, certifications: 0, malfunctions: 0, enginePower: 0, unidentified: 0 };
    for (const d of drivers) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/organizations/${a.orgId}/drivers/${d.id}/hos_log/eld-transfer`,
        headers: a.admin,
        payload: { method: 'WEB_SERVICE', outputFileComment: 'DEMO WEEK' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = eldTransferSchema.parse(res.json());
      const got = standIn.submissions.at(-1)!;
      for (const m of got.messages) found.push(`${d.last_name}: ${m.type} ${m.message} line ${m.line} (${m.detail}): ${got.fileBody.split('\r')[m.line - 1]}`);
      if (got.messages.length === 0) expect(body.status).toBe('INFORMATION');
      const file = parseEldFile(got.fileBody);
      totals.events += file.events.length;
      totals.annotations += file.events.filter((e) => e.annotation).length;
      totals.certifications += file.certifications.length;
      totals.malfunctions += file.malfunctions.length;
      totals.enginePower += file.enginePower.length;
      totals.unidentified += file.unidentifiedEvents.length;
    }
    console.info(`demo files sent: ${JSON.stringify(totals)}`);
    expect(found).toEqual([]);
    // The week is there: records of every kind the demo makes across the drivers.
    expect(totals.events).toBeGreaterThan(500);
    expect(totals.certifications).toBeGreaterThan(100);
    expect(totals.unidentified).toBeGreaterThan(0);
    expect(totals.enginePower).toBeGreaterThan(100);
    expect(totals.annotations).toBeGreaterThan(10);
  }, 300_000);
});
