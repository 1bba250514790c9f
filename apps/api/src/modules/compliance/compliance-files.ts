import { DRIVER_COMPLIANCE_KINDS, complianceChecklist, complianceStatus } from '@fleet/api-contract';
import type { ReadScope } from '../auth/index.ts';
import { notFound } from '../../http/errors.ts';
import { qualificationFilePdf, type IndexRow } from './compliance-pdf.ts';
import * as repo from './compliance.repository.ts';
import type { SubjectRow } from './compliance.repository.ts';
import { clockOf, documentParts, type ComplianceClock } from './compliance.service.ts';

// Drivers' qualification files as PDF (issue 71, decision 0300): the index lists every approved paper
// of the driver, the kinds in the file's order and each kind's papers newest first (older MVRs and
// reviews stay in the file, as 391.51 keeps them), plus each required paper that is missing; then
// each document in the index's order. Pending and rejected renewals are not part of the file. All
// active drivers' files together are one ZIP of one PDF per driver.

/** One driver's file as PDF bytes. */
async function fileOfDriver(s: ReadScope, subject: SubjectRow, clock: ComplianceClock): Promise<Buffer> {
  const items = await repo.itemsOfSubjects(s.db, s.orgId, { driverIds: [subject.id] }, { approvedOnly: true });
  const parts = await documentParts(
    s.db,
    s.orgId,
    items.map((i) => i.id),
  );
  const checklist = complianceChecklist(
    'DRIVER',
    items.map((i) => ({ ...i, createdAt: i.createdAt.toISOString() })),
    clock.today,
    clock.expiringDays,
  );
  const rows: IndexRow[] = [];
  for (const kind of DRIVER_COMPLIANCE_KINDS) {
    const ofKind = items.filter((i) => i.kind === kind);
    const row = checklist.find((r) => r.kind === kind);
    if (ofKind.length === 0) {
      if (row?.status === 'MISSING') rows.push({ kind, title: null, number: null, issuedOn: null, dueDate: row.dueDate, status: 'MISSING', parts: [] });
      continue;
    }
    for (const i of ofKind) {
      // The checklist's word for the current paper (the limited query's due date reads the full query too), else the paper's own.
      const current = checklist.find((r) => r.current?.id === i.id);
      const st = current ?? complianceStatus(i, clock.today, clock.expiringDays);
      rows.push({ kind, title: i.title, number: i.number, issuedOn: i.issuedOn, dueDate: st.dueDate, status: st.status, parts: parts.get(i.id) ?? [] });
    }
  }
  return qualificationFilePdf({ driverName: subject.name, organizationName: clock.organizationName, today: clock.today }, rows);
}

const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'driver';

/** GET `drivers/{driverId}/qualification-file.pdf`: the index page, then each document. */
export async function qualificationFile(s: ReadScope, driverId: string): Promise<{ fileName: string; pdf: Buffer }> {
  const subject = await repo.driverSubject(s.db, s.orgId, driverId);
  if (!subject) throw notFound('Driver');
  const clock = await clockOf(s.db, s.orgId, s.now);
  return { fileName: `${fileSafe(subject.name)}-qualification-file-${clock.today}.pdf`, pdf: await fileOfDriver(s, subject, clock) };
}

/** GET `drivers/qualification-files.zip`: one PDF per active driver (names made unique). */
export async function qualificationFilesZip(s: ReadScope): Promise<{ fileName: string; zip: Buffer }> {
  const clock = await clockOf(s.db, s.orgId, s.now);
  const drivers = await repo.activeSubjects(s.db, s.orgId, { assets: false });
  const { zipSync } = await import('fflate');
  const entries: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const d of drivers) {
    let name = `${fileSafe(d.name)}-qualification-file.pdf`;
    if (entries[name]) name = `${fileSafe(d.name)}-${d.id.slice(0, 8)}-qualification-file.pdf`;
    // PDF content is compressed already: stored as it is.
    entries[name] = [new Uint8Array(await fileOfDriver(s, d, clock)), { level: 0 }];
  }
  return { fileName: `qualification-files-${clock.today}.zip`, zip: Buffer.from(zipSync(entries)) };
}
