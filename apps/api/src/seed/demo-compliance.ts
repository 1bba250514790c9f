import { crc32, deflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/sql/rows.ts';

// The demo's compliance files (issue 71, decision 0300): every active driver and unit gets a complete,
// mostly valid file, dates spread so the calendar has something each month; plus what the issue
// shows: the medical certificate of tractor 101's driver (the demo driver who signs in) expires in 5
// days and that driver has photographed a renewal waiting for approval, tractor 104's annual
// inspection has lapsed, and tractor 105's driver has no Clearinghouse full query (MISSING). Two
// statements, dates counted from today in the organization's zone; made once (a part marked done).

/** A PNG of one light-grey pixel (the renewal's photographed page, fitted to its sheet by the PDF). */
function greyPixelPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 0xe5, 0xe7, 0xeb]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PAGE_PNG = greyPixelPng();

export async function ensureDemoCompliance(db: Db, orgId: string): Promise<{ items: number; pending: number }> {
  const made = rowsOf<{ n: number }>(
    await db.execute(sql`
    with org as (select (now() at time zone time_zone)::date as today from organizations where id = ${orgId}),
    unit_driver as (select a.unit_number, a.current_driver_id as driver_id from assets a where a.organization_id = ${orgId} and a.current_driver_id is not null),
    d as (
      select dr.id, dr.license_number, dr.license_state, dr.license_class, dr.license_expiry, ud.unit_number,
             row_number() over (order by dr.last_name, dr.first_name, dr.id) as rn
      from drivers dr left join unit_driver ud on ud.driver_id = dr.id
      where dr.organization_id = ${orgId} and dr.status = 'ACTIVE'
    ),
    a as (
      select id, type, unit_number, row_number() over (order by unit_number, id) as rn
      from assets where organization_id = ${orgId} and status = 'ACTIVE'
    ),
    -- The columns named in the first select, not in a list after the name: Citus loses such a list.
    papers as (
      select d.id as driver_id, null::uuid as asset_id, 'CDL' as kind, d.license_number as number, d.license_state as state,
             case when d.license_class in ('A', 'B', 'C') then d.license_class end as class,
             null as issuer, null as examiner_registry_number, null as inspector, null as result, null::date as issued_on,
             coalesce(d.license_expiry, (select today from org) + (400 + (d.rn * 53) % 900)::int) as expires_on
        from d where d.license_number is not null
      union all
      select d.id, null, 'MEDICAL_CERTIFICATE', null, null, null, null, lpad(((d.rn * 7919) % 10000000000)::text, 10, '0'), null, null,
             (select today from org) - (200 + (d.rn * 17) % 300)::int,
             case when d.unit_number = '101' then (select today from org) + 5 else (select today from org) + (60 + (d.rn * 41) % 420)::int end
        from d
      union all
      select d.id, null, k.kind, null, null, null, null, null, null, null, (select today from org) - ((d.rn * k.step) % 320)::int, null
        from d cross join (values ('MVR', 23), ('ANNUAL_REVIEW', 29), ('CLEARINGHOUSE_LIMITED', 31)) as k(kind, step)
      union all
      select d.id, null, k.kind, null, null, null, k.issuer, null, null, null, (select today from org) - (700 + (d.rn * 19) % 900 + k.back)::int, null
        from d cross join (values ('EMPLOYMENT_APPLICATION', null, 20), ('EMPLOYER_INQUIRY', 'Previous employer (three years)', 10), ('ROAD_TEST', null, 5)) as k(kind, issuer, back)
      union all
      select d.id, null, 'CLEARINGHOUSE_FULL', null, null, null, null, null, null, null, (select today from org) - (700 + (d.rn * 19) % 900 + 3)::int, null
        from d where d.unit_number is distinct from '105'
      union all
      select null, a.id, 'REGISTRATION', 'IRP-' || a.unit_number, 'IL', null, null, null, null, null, null, (select today from org) + (45 + (a.rn * 37) % 330)::int
        from a
      union all
      select null, a.id, 'INSURANCE', 'POL-2718281', null, null, 'Great Lakes Casualty', null, null, null, null, (select today from org) + (120 + (a.rn * 11) % 200)::int
        from a where a.type = 'VEHICLE'
      union all
      select null, a.id, 'ANNUAL_INSPECTION', null, null, null, null, null, 'Fleet shop, qualified inspector', 'PASS',
             case when a.unit_number = '104' then (select today from org) - 375 else (select today from org) - ((a.rn * 43) % 330)::int end, null
        from a
    )
    insert into compliance_items (organization_id, driver_id, asset_id, kind, approval, number, state, class, issuer, examiner_registry_number, inspector, result, issued_on, expires_on)
    select ${orgId}, driver_id, asset_id, kind, 'APPROVED', number, state, class, issuer, examiner_registry_number, inspector, result, issued_on, expires_on
    from papers
    returning 1 as n`),
  );
  // Tractor 101's driver photographed a renewed medical certificate in the app: waiting for the office.
  const pending = rowsOf<{ id: string }>(
    await db.execute(sql`
    with driver as (
      select dr.id, dr.user_id from assets a join drivers dr on dr.id = a.current_driver_id and dr.organization_id = a.organization_id
      where a.organization_id = ${orgId} and a.unit_number = '101'
    ),
    org as (select (now() at time zone time_zone)::date as today from organizations where id = ${orgId}),
    item as (
      insert into compliance_items (organization_id, driver_id, kind, approval, issued_on, expires_on, examiner_registry_number, page_count, submitted_by, notes)
      select ${orgId}, driver.id, 'MEDICAL_CERTIFICATE', 'PENDING', (select today from org) - 1, (select today from org) + 729, '4815162342', 1, driver.user_id,
             'Renewed at the clinic yesterday'
      from driver
      returning id, submitted_by
    ),
    image as (
      insert into images (organization_id, uploaded_by, owner_type, owner_id, content_type, size, data)
      select ${orgId}, item.submitted_by, 'COMPLIANCE_ITEM', item.id, 'image/png', ${PAGE_PNG.length}, ${PAGE_PNG} from item
      returning id, owner_id
    )
    insert into compliance_item_pages (organization_id, item_id, seq, image_id)
    select ${orgId}, image.owner_id, 0, image.id from image
    returning item_id as id`),
  );
  return { items: made.length + pending.length, pending: pending.length };
}
