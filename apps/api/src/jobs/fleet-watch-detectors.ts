import type { Availability } from '@fleet/api-contract';
import type { FleetViolation } from '../modules/hos/index.ts';
import type { NotifyInput } from '../modules/notifications/index.ts';

// What the fleet watch notifies, as pure functions from what it read to the notifications to send.
// Each carries a fact key that names the fact exactly once, so detecting it again does nothing.

const RULE_WORDS: Record<string, string> = {
  DRIVING_LIMIT: 'driving limit',
  WINDOW_LIMIT: '14-hour window',
  BREAK_REQUIRED: '30-minute break',
  CYCLE_LIMIT: 'cycle limit',
  ON_DUTY_LIMIT: 'on-duty limit',
  SHIFT_ELAPSED_LIMIT: '16-hour shift',
  DAILY_DRIVING_LIMIT: 'daily driving limit',
  DAILY_ON_DUTY_LIMIT: 'daily on-duty limit',
  DAILY_OFF_DUTY: 'daily off-duty requirement',
  CYCLE_OFF_DUTY_REQUIRED: '24 hours off requirement',
};

/** "Nov 22" for 2026-11-22. */
/** "Jun 1, 6:19 AM CDT": a violation's start in its driver's home-terminal time, labelled (decision 0140). */
const homeTime = (ms: number, timeZone: string) => homeFormat(timeZone).format(new Date(ms));
/**
 * One formatter per zone: making an Intl.DateTimeFormat costs a hundred times its use, and the
 * fleet watch used to make one per violation of the last day at every check (4.7 s of one API
 * instance's CPU in `bench/citus.ts`'s paced singles, more than ingest's own code).
 */
const formats = new Map<string, Intl.DateTimeFormat>();
function homeFormat(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f)
    formats.set(
      timeZone,
      (f = new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })),
    );
  return f;
}
const dayWords = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

const name = (d: { firstName: string; lastName: string }) => `${d.firstName} ${d.lastName}`;

/** How far back a violation is still news: older ones (history, a restart) are not notified. */
export const VIOLATION_NEWS_MS = 24 * 3_600_000;

/** The fact a violation's notice names: one notice per driver, rule and start. */
export const violationFactKey = (v: FleetViolation) => `violation:${v.driver.id}:${v.rule}:${new Date(v.startMs).toISOString()}`;

/** Whether a violation is news at `nowMs`: it began in the last `newsMs`. */
export const isViolationNews = (v: FleetViolation, nowMs: number, newsMs = VIOLATION_NEWS_MS) => v.startMs > nowMs - newsMs && v.startMs <= nowMs;

/** A violation that began in the last `newsMs` (default VIOLATION_NEWS_MS). */
export function violationNotices(
  orgId: string,
  violations: readonly FleetViolation[],
  nowMs: number,
  logIdOf: (v: FleetViolation) => string | null,
  newsMs = VIOLATION_NEWS_MS,
): NotifyInput[] {
  return violations
    .filter((v) => isViolationNews(v, nowMs, newsMs))
    .map((v) => {
      const logId = logIdOf(v);
      return {
        organizationId: orgId,
        kind: 'VIOLATION' as const,
        factKey: violationFactKey(v),
        title: `${name(v.driver)} broke the ${RULE_WORDS[v.rule] ?? v.rule}`,
        body: `${RULE_WORDS[v.rule] ?? v.rule} (${v.severity.toLowerCase()}) from ${homeTime(v.startMs, v.timeZone)} (home terminal), log day ${v.logDate}.`,
        link: logId ? `/hos/logs/${logId}` : `/hos/violations?driver=${v.driver.id}`,
        linkLabel: logId ? 'Open the log day' : 'See the violations',
        subject: { firstName: v.driver.firstName, lastName: v.driver.lastName },
        about: { driverId: v.driver.id },
        occurredAt: v.startMs,
        webhook: {
          orgId,
          type: 'hos.violation_started' as const,
          at: v.startMs,
          data: {
            driverId: v.driver.id,
            driverName: name(v.driver),
            rule: v.rule,
            label: RULE_WORDS[v.rule] ?? v.rule,
            startedAt: new Date(v.startMs).toISOString(),
          },
        },
      };
    });
}

/** Driving time left under which a driver at work is notified. */
export const DRIVE_LOW_MS = 30 * 60_000;

/**
 * A driver driving or on duty with less than 30 minutes of driving left (and some left: none left
 * is a violation's business), once per driver and log day.
 */
export function driveLowNotices(orgId: string, availability: readonly Availability[], logDateOf: (driverId: string) => string): NotifyInput[] {
  return availability
    .filter((a) => (a.status === 'D' || a.status === 'ON') && a.availableDriveMs > 0 && a.availableDriveMs < DRIVE_LOW_MS)
    .map((a) => ({
      organizationId: orgId,
      kind: 'DRIVE_TIME_LOW' as const,
      factKey: `drive-low:${a.driver.id}:${logDateOf(a.driver.id)}`,
      title: `${name(a.driver)} has ${Math.max(1, Math.floor(a.availableDriveMs / 60_000))} minutes of driving left`,
      body: `${name(a.driver)}${a.vehicle ? ` (vehicle ${a.vehicle.unitNumber})` : ''} must stop driving soon to stay within the hours-of-service limits.`,
      link: `/hos/availability?search=${encodeURIComponent(a.driver.lastName)}`,
      linkLabel: 'See the clocks',
      subject: { firstName: a.driver.firstName, lastName: a.driver.lastName },
      about: { driverId: a.driver.id },
    }));
}

/** A device silent for more than a day, once per silence (its last report names it). */
export function deviceOfflineNotice(
  orgId: string,
  d: { id: string; name: string; uniqueId: string; lastSeenAt: Date; assetId: string | null; unitNumber: string | null },
): NotifyInput {
  const hours = Math.floor((Date.now() - d.lastSeenAt.getTime()) / 3_600_000);
  return {
    organizationId: orgId,
    kind: 'DEVICE_OFFLINE',
    factKey: `device-offline:${d.id}:${d.lastSeenAt.toISOString()}`,
    title: `Device ${d.name} has been offline for ${hours} hours`,
    body: `${d.name} (${d.uniqueId})${d.unitNumber ? ` in vehicle ${d.unitNumber}` : ''} last reported at ${d.lastSeenAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    link: `/settings/organization-settings/devices/${d.id}`,
    linkLabel: 'Open the device',
    about: { assetId: d.assetId },
    // The silence began at its last report (what the fact key names), not when the watch noticed it.
    occurredAt: d.lastSeenAt,
    webhook: {
      orgId,
      type: 'device.offline',
      at: d.lastSeenAt,
      data: { deviceId: d.id, uniqueId: d.uniqueId, assetId: d.assetId, unitNumber: d.unitNumber, lastSeenAt: d.lastSeenAt.toISOString() },
    },
  };
}

/** One notice per organization and log day: how many of that day's logs are not certified. */
export function uncertifiedNotice(orgId: string, date: string, drivers: ReadonlyArray<{ firstName: string; lastName: string }>): NotifyInput | null {
  if (drivers.length === 0) return null;
  const names = drivers.slice(0, 5).map(name).join(', ') + (drivers.length > 5 ? ` and ${drivers.length - 5} more` : '');
  return {
    organizationId: orgId,
    kind: 'LOG_UNCERTIFIED',
    factKey: `uncertified:${date}`,
    title: drivers.length === 1 ? `The log of ${dayWords(date)} is not certified` : `${drivers.length} logs of ${dayWords(date)} are not certified`,
    body: `Not certified: ${names}. Drivers certify each day's log once it has ended.`,
    link: `/hos/logs?date=${date}&problem=UNCERTIFIED`,
    linkLabel: 'See the logs',
  };
}
