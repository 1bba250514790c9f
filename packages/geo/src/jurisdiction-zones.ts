// The time zone of a US state or Canadian province (issue 46, docs/decisions/0189): IFTA quarters and
// days are cut in the zone of the carrier's base jurisdiction, so a Chicago carrier's evening of
// December 31 is in Q4. A jurisdiction with several zones has a principal one (where most of it
// lives and its capital is) and others; a carrier whose own zone is one of them keeps its own.

/** Principal zone, then the jurisdiction's other zones. */
const ZONES: Record<string, readonly [string, ...string[]]> = {
  AL: ['America/Chicago'],
  AK: ['America/Anchorage', 'America/Adak'],
  AZ: ['America/Phoenix', 'America/Denver'],
  AR: ['America/Chicago'],
  CA: ['America/Los_Angeles'],
  CO: ['America/Denver'],
  CT: ['America/New_York'],
  DE: ['America/New_York'],
  DC: ['America/New_York'],
  FL: ['America/New_York', 'America/Chicago'],
  GA: ['America/New_York'],
  HI: ['Pacific/Honolulu'],
  ID: ['America/Boise', 'America/Los_Angeles'],
  IL: ['America/Chicago'],
  IN: ['America/Indiana/Indianapolis', 'America/Chicago'],
  IA: ['America/Chicago'],
  KS: ['America/Chicago', 'America/Denver'],
  KY: ['America/New_York', 'America/Chicago'],
  LA: ['America/Chicago'],
  ME: ['America/New_York'],
  MD: ['America/New_York'],
  MA: ['America/New_York'],
  MI: ['America/Detroit', 'America/Chicago'],
  MN: ['America/Chicago'],
  MS: ['America/Chicago'],
  MO: ['America/Chicago'],
  MT: ['America/Denver'],
  NE: ['America/Chicago', 'America/Denver'],
  NV: ['America/Los_Angeles'],
  NH: ['America/New_York'],
  NJ: ['America/New_York'],
  NM: ['America/Denver'],
  NY: ['America/New_York'],
  NC: ['America/New_York'],
  ND: ['America/Chicago', 'America/Denver'],
  OH: ['America/New_York'],
  OK: ['America/Chicago'],
  OR: ['America/Los_Angeles', 'America/Boise'],
  PA: ['America/New_York'],
  RI: ['America/New_York'],
  SC: ['America/New_York'],
  SD: ['America/Chicago', 'America/Denver'],
  TN: ['America/Chicago', 'America/New_York'],
  TX: ['America/Chicago', 'America/Denver'],
  UT: ['America/Denver'],
  VT: ['America/New_York'],
  VA: ['America/New_York'],
  WA: ['America/Los_Angeles'],
  WV: ['America/New_York'],
  WI: ['America/Chicago'],
  WY: ['America/Denver'],
  AB: ['America/Edmonton'],
  BC: ['America/Vancouver', 'America/Edmonton', 'America/Creston'],
  MB: ['America/Winnipeg'],
  NB: ['America/Moncton'],
  NL: ['America/St_Johns', 'America/Goose_Bay'],
  NS: ['America/Halifax'],
  NT: ['America/Yellowknife'],
  NU: ['America/Iqaluit', 'America/Winnipeg', 'America/Edmonton'],
  ON: ['America/Toronto', 'America/Winnipeg'],
  PE: ['America/Halifax'],
  QC: ['America/Toronto', 'America/Halifax'],
  SK: ['America/Regina', 'America/Edmonton'],
  YT: ['America/Whitehorse'],
};

/** The UTC offsets (minutes) of a zone in January and July: two zones with the same pair keep the same days. */
function offsets(zone: string): string | null {
  try {
    const at = (month: number) => {
      const d = new Date(Date.UTC(2026, month, 15, 12));
      const part =
        new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? '';
      return part;
    };
    return `${at(0)}|${at(6)}`;
  } catch {
    return null;
  }
}

/** The principal zone of a jurisdiction code (`IL` → America/Chicago), or null for an unknown code. */
export function principalZone(code: string): string | null {
  return ZONES[code.toUpperCase()]?.[0] ?? null;
}

/**
 * The zone IFTA days are cut in for a carrier based in `base`: the carrier's own zone (`own`, its
 * address's) when it is one of the jurisdiction's zones (El Paso in Texas keeps Mountain time),
 * else the jurisdiction's principal zone; with no known base jurisdiction, the carrier's own zone,
 * else UTC.
 */
export function baseJurisdictionZone(base: string | null | undefined, own: string | null | undefined): string {
  const zones = base ? ZONES[base.toUpperCase()] : undefined;
  if (!zones) return own || 'UTC';
  if (own) {
    const mine = offsets(own);
    if (mine !== null && zones.some((z) => offsets(z) === mine)) return own;
  }
  return zones[0];
}
