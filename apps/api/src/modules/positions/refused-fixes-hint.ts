// What a refused fix, or a device clock far off, means to the person who can fix the device, in
// words (issue 43): the device's page and the "device clock wrong" notification say the same.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365.25 * DAY;
/** GPS counts weeks in 10 bits: a receiver that misses a rollover reports dates 1024 weeks (19.6 years) early. */
export const GPS_WEEK_ROLLOVER_MS = 1024 * 7 * DAY;
/** A clock this close to right is right: the fix check allows 10 minutes ahead, and late fixes are buffered ones. */
export const CLOCK_TOLERANCE_MS = 10 * MINUTE;

/** How far off a clock is, in words: "2 years behind", "2 hours fast", "3 days ahead". Null within CLOCK_TOLERANCE_MS. */
export function offsetWords(offsetMs: number | null): string | null {
  if (offsetMs === null || !Number.isFinite(offsetMs) || Math.abs(offsetMs) < CLOCK_TOLERANCE_MS) return null;
  const abs = Math.abs(offsetMs);
  const way = offsetMs < 0 ? 'behind' : abs < DAY ? 'fast' : 'ahead';
  return `${amount(abs)} ${way}`;
}

/** One decimal where it matters ("19.6 years", "1.5 hours"), none when whole ("2 years"). */
function amount(abs: number): string {
  const [n, unit] = abs < HOUR ? [abs / MINUTE, 'minute'] : abs < 2 * DAY ? [abs / HOUR, 'hour'] : abs < 60 * DAY ? [abs / DAY, 'day'] : [abs / YEAR, 'year'];
  const shown = unit === 'minute' ? Math.round(n) : Math.round(n * 10) / 10;
  return `${shown} ${unit}${shown === 1 ? '' : 's'}`;
}

/** Near a whole number of GPS week rollovers (within a day either way, whatever the time of day). */
const isWeekRollover = (offsetMs: number) => {
  const k = Math.round(Math.abs(offsetMs) / GPS_WEEK_ROLLOVER_MS);
  return k >= 1 && Math.abs(Math.abs(offsetMs) - k * GPS_WEEK_ROLLOVER_MS) < DAY;
};

/** Within 2 minutes of a whole or half number of hours, under 15 hours: a time zone taken for UTC. */
const isZoneLike = (abs: number) => abs < 15 * HOUR && Math.abs(abs - Math.round(abs / (HOUR / 2)) * (HOUR / 2)) < 2 * MINUTE;

const RECEIVED_TIME = "or turn on 'use the time received' for this device";

/** What to check on the device, for a clock `offsetMs` off (fix time minus time received); null when it looks right. */
export function clockHint(offsetMs: number | null): string | null {
  const words = offsetWords(offsetMs);
  if (words === null || offsetMs === null) return null;
  const abs = Math.abs(offsetMs);
  if (isWeekRollover(offsetMs)) return `clock ${words}: check the tracker's GPS week-number setting (week rollover); update its firmware, ${RECEIVED_TIME}`;
  if (abs >= 300 * DAY) return `clock ${words}: check the tracker's GPS week setting, ${RECEIVED_TIME}`;
  if (abs >= 2 * DAY) return `clock ${words}: check the device's date setting, ${RECEIVED_TIME}`;
  if (isZoneLike(abs)) return `clock ${words}: check the phone's or tracker's time zone / time setting (local time sent as UTC?), ${RECEIVED_TIME}`;
  return `clock ${words}: check the phone's or tracker's time setting, ${RECEIVED_TIME}`;
}

/** Refusals that are about the fix's time: the clock hint applies, and the device is flagged. */
export const TIME_REASONS: ReadonlySet<string> = new Set(['tooOld', 'inFuture']);

/** What to check for a refusal that is not about the clock. */
const REASON_HINTS: Record<string, string> = {
  badTime: 'the device sent a time that is not a time: check its firmware and its time setting',
  coordinates: 'the device sent coordinates outside the globe: check its GPS antenna and firmware',
  speed: 'the device sent an impossible speed: check its firmware or its speed unit setting',
  course: 'the device sent an impossible course: check its firmware',
  altitude: 'the device sent an impossible altitude: check its firmware',
  accuracy: 'the device sent an impossible accuracy: check its firmware',
  value: 'the device sent a number no column can hold: check its firmware',
  undecodable:
    'the server cannot read what the device sends: set its data protocol to codec 8 or 8 Extended (Teltonika Configurator, System: Data Protocol) or update its firmware',
  database: 'the database refused this fix: the server log has the cause',
};

/**
 * The hint shown beside a refused fix: the clock's, for a time refusal (or any fix whose clock is
 * far off), else the reason's.
 */
export function refusalHint(reason: string, offsetMs: number | null): string | null {
  const clock = clockHint(offsetMs);
  if (clock && (TIME_REASONS.has(reason) || !REASON_HINTS[reason])) return clock;
  return REASON_HINTS[reason] ?? clock;
}
