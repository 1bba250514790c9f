import { describe, expect, it } from 'vitest';
import { RULESET_IDS } from '@fleet/hos';
import { DEFAULT_ORGANIZATION_SETTINGS, organizationAccountSchema, organizationSettingsSchema } from './organizations.ts';
import { dataRetentionInputSchema, RETENTION_KIND_INFO, RETENTION_KINDS } from './data-retention.ts';
import { missingRequiredPermissions, PERMISSION_AREAS, withRequiredPermissions } from './permission-catalogue.ts';
import { ORGANIZATION_PERMISSIONS } from './permissions.ts';

describe('permission checklist', () => {
  it('holds every organization code exactly once', () => {
    const codes = PERMISSION_AREAS.flatMap((a) => a.permissions.map((p) => p.code));
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual([...ORGANIZATION_PERMISSIONS].sort());
  });

  it('adds what a code requires, transitively, and reports what is missing', () => {
    expect(withRequiredPermissions(['GROUP_UPDATE'])).toEqual(['GROUP_LIST', 'GROUP_READ', 'GROUP_UPDATE']);
    expect(withRequiredPermissions(['USER_CREATE']).sort()).toEqual(['ROLE_LIST', 'USER_CREATE', 'USER_LIST', 'USER_READ']);
    expect(missingRequiredPermissions(['RET_UPDATE'])).toEqual(['RET_READ']);
    expect(missingRequiredPermissions(['RET_UPDATE', 'RET_READ'])).toEqual([]);
  });

  it('makes every create or update code bring a list or read code of its area', () => {
    for (const a of PERMISSION_AREAS) {
      for (const p of a.permissions.filter((x) => /_(CREATE|UPDATE|DELETE)$/.test(x.code))) expect(p.requires.length, p.code).toBeGreaterThan(0);
    }
  });
});

describe('organization settings', () => {
  it('accepts the defaults and every HoS ruleset', () => {
    expect(organizationSettingsSchema.parse(DEFAULT_ORGANIZATION_SETTINGS)).toEqual(DEFAULT_ORGANIZATION_SETTINGS);
    for (const r of RULESET_IDS) expect(organizationSettingsSchema.safeParse({ ...DEFAULT_ORGANIZATION_SETTINGS, defaultRuleset: r }).success).toBe(true);
  });

  it('accepts the 24-hour period start at any minute of the day and nothing else', () => {
    for (const ok of ['00:00', '06:30', '23:59'])
      expect(organizationSettingsSchema.safeParse({ ...DEFAULT_ORGANIZATION_SETTINGS, periodStartTime: ok }).success).toBe(true);
    for (const bad of ['24:00', '6:30', '12:60', 'noon'])
      expect(organizationSettingsSchema.safeParse({ ...DEFAULT_ORGANIZATION_SETTINGS, periodStartTime: bad }).success).toBe(false);
  });

  it('normalises the account: MC prefix dropped, state upper-cased, empty optional fields null', () => {
    const v = organizationAccountSchema.parse({ name: ' Acme ', mcNumber: 'mc 12345', state: 'tx', phone: '', timeZone: 'America/Chicago' });
    expect(v).toMatchObject({ name: 'Acme', mcNumber: '12345', state: 'TX', phone: null, dotNumber: null, country: 'US' });
  });
});

describe('retention input', () => {
  it('enforces each kind minimum and allows keep-forever', () => {
    for (const kind of RETENTION_KINDS) {
      const min = RETENTION_KIND_INFO[kind].minimumDays;
      expect(dataRetentionInputSchema.safeParse({ policies: [{ kind, retentionDays: min }] }).success, kind).toBe(true);
      expect(dataRetentionInputSchema.safeParse({ policies: [{ kind, retentionDays: min - 1 }] }).success, kind).toBe(false);
      expect(dataRetentionInputSchema.safeParse({ policies: [{ kind, retentionDays: null }] }).success, kind).toBe(true);
    }
    expect(RETENTION_KIND_INFO.HOS_RECORDS.minimumDays).toBeGreaterThanOrEqual(183);
    expect(RETENTION_KIND_INFO.FUEL_IFTA.minimumDays).toBeGreaterThanOrEqual(4 * 365);
  });
});
