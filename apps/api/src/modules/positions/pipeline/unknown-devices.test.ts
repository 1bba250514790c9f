import { describe, expect, it } from 'vitest';
import { UnknownDevices } from './unknown-devices.ts';

describe('unknown devices', () => {
  it('counts each id once per protocol and sender, newest first, and forgets the oldest past the cap', () => {
    const u = new UnknownDevices(2);
    u.note('111', 'teltonika', null, '10.0.0.1', new Date(1000));
    u.note('222', 'traccar', 'org-a', null, new Date(2000));
    u.note('111', 'teltonika', null, '10.0.0.2', new Date(3000));
    expect(u.total).toBe(3);
    expect(u.recent().map((d) => [d.uniqueId, d.attempts, d.remoteAddress])).toEqual([
      ['111', 2, '10.0.0.2'],
      ['222', 1, null],
    ]);
    expect(u.recent({ organizationId: 'org-a' }).map((d) => d.uniqueId)).toEqual(['222']);
    u.note('333', 'osmand');
    expect(u.recent().map((d) => d.uniqueId)).toEqual(['333', '111']);
    u.forget('111');
    expect(u.recent().map((d) => d.uniqueId)).toEqual(['333']);
  });
});
