import type { NotifyInput } from '../notifications/index.ts';
import { clockHint, offsetWords } from './refused-fixes-hint.ts';

// The "device clock wrong" notification (issue 43): raised by the refused-fix recorder when a
// device's fixes are refused for their time, or several in a row arrive with the same offset far
// from the time received. Once per device and UTC day: the fact key names both.

export interface ClockSuspect {
  organizationId: string;
  gatewayId: string;
  /** Fix time minus time received, of the newest fix seen. */
  offsetMs: number;
  /** True: its fixes were refused for their time; false: stored, at the device's wrong time. */
  refused: boolean;
  /** When it was seen (picks the day of the fact). */
  at: Date;
}

/** The fact of one device's clock on one UTC day. */
export const clockFactKey = (gatewayId: string, at: Date) => `device-clock:${gatewayId}:${at.toISOString().slice(0, 10)}`;

/** The notification for one suspect device, with its name and paired vehicle. */
export function deviceClockNotice(s: ClockSuspect, device: { name: string; uniqueId: string; assetId: string | null }): NotifyInput {
  const words = offsetWords(s.offsetMs) ?? 'off';
  const what = s.refused
    ? 'Its fixes are answered as received but not stored.'
    : "Its fixes are stored at the device's time, so its trips and hours are shifted.";
  const hint = clockHint(s.offsetMs);
  return {
    organizationId: s.organizationId,
    kind: 'DEVICE_CLOCK',
    factKey: clockFactKey(s.gatewayId, s.at),
    title: `Device ${device.name}: clock ${words}`,
    body: `${device.name} (${device.uniqueId}) sends fix times ${words} of when they arrive. ${what}${hint ? ` ${hint[0]!.toUpperCase()}${hint.slice(1)}.` : ''}`,
    link: `/settings/organization-settings/devices/${s.gatewayId}`,
    linkLabel: 'Open the device',
    about: { assetId: device.assetId },
    occurredAt: s.at,
  };
}
