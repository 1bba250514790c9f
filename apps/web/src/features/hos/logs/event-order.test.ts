// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { HosEvent } from '@fleet/api-contract';
import { withVersions } from './event-order.ts';

const ev = (id: string, at: string, recordStatus: HosEvent['recordStatus'] = 'ACTIVE', replacesEventId: string | null = null): HosEvent => ({
  id,
  sequenceId: 0,
  eventType: 1,
  eventCode: 1,
  status: 'OFF',
  special: null,
  recordStatus,
  recordOrigin: 'DRIVER',
  at,
  logDate: '2026-10-13',
  latitude: null,
  longitude: null,
  locationDescription: null,
  vehicle: null,
  odometerM: null,
  engineHours: null,
  annotation: null,
  replacesEventId,
  editRequestId: null,
  createdAt: at,
});

describe('events with their versions', () => {
  it('puts each replaced version under the event that replaced it, newest first through repeated edits', () => {
    const events = [
      ev('a', '2026-10-13T10:00:00Z'),
      ev('orig', '2026-10-13T11:00:00Z', 'INACTIVE_CHANGED'),
      ev('mid', '2026-10-13T11:30:00Z', 'INACTIVE_CHANGED', 'orig'),
      ev('b', '2026-10-13T12:00:00Z'),
      ev('now', '2026-10-13T12:30:00Z', 'ACTIVE', 'mid'),
    ];
    expect(withVersions(events).map((e) => e.id)).toEqual(['a', 'b', 'now', 'mid', 'orig']);
  });

  it('keeps a replaced version whose successor is on another day at its own time', () => {
    const events = [ev('x', '2026-10-13T10:00:00Z', 'INACTIVE_CHANGED'), ev('y', '2026-10-13T11:00:00Z')];
    expect(withVersions(events).map((e) => e.id)).toEqual(['x', 'y']);
  });
});
