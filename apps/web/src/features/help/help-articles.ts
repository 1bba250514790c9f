// The help articles of /help, written for Fleetline. Plain data: the page searches titles, tags and
// text, and renders paragraphs and lists. `qr` marks the article that shows the phone-setup QR code.

export interface HelpArticle {
  id: string;
  title: string;
  tags: string[];
  /** Paragraphs; a paragraph starting with "- " lines is a list. */
  body: string[];
  qr?: boolean;
}

export const HELP_ARTICLES: HelpArticle[] = [
  {
    id: 'getting-started',
    title: 'Getting started',
    tags: ['start', 'setup', 'first steps', 'dashboard'],
    body: [
      'Fleetline shows where your vehicles are, how many hours each driver may still drive, and what needs attention. After you sign in you land on the Dashboard: each counter opens the list behind it.',
      'Set up the fleet in this order:\n- Organization account (Settings): your DOT number, time zone, units, the 24-hour period start and the default HoS ruleset.\n- Drivers: one record per driver with licence, home terminal time zone and ruleset.\n- Vehicles and trailers, or import them from a CSV file.\n- Devices: one per tracker or phone, then pair each with its vehicle.\n- Groups (East region, Night shift…) to filter lists and the map, and to choose whose notifications you get.',
      'Press Ctrl+K (⌘K on a Mac) anywhere to search every record: a unit number, a few characters of a VIN, a name, a device id, or a name and a date for a driver’s log day.',
    ],
  },
  {
    id: 'traccar-client',
    title: 'Connecting a phone with Traccar Client',
    tags: ['phone', 'traccar', 'osmand', 'gps', 'tracker', 'qr', 'server url', 'device id'],
    qr: true,
    body: [
      'Any Android or iPhone can be a tracker with the free Traccar Client app. It sends positions with the OsmAnd protocol, which Fleetline understands on its device port.',
      '- Add a device in Settings › Devices. Its unique id is what the phone will send (for example the phone number or "truck-107-phone").\n- Pair the device with the vehicle it rides in.\n- Install Traccar Client, open its settings and set the Device identifier to that unique id and the Server URL to the address below (or scan the QR code with the app).\n- Switch Service status on. The vehicle appears on the map within a minute.',
      'The server URL is this server’s address on the device port (5055 unless your administrator changed it). If the port is closed, use the same address without the port, followed by /api/v1/ingest/osmand.',
    ],
  },
  {
    id: 'pairing-devices',
    title: 'Pairing devices with vehicles',
    tags: ['device', 'pair', 'unpair', 'gateway', 'eld', 'token'],
    body: [
      'A device reports for the vehicle it is paired with, and the vehicle’s assigned driver gets the driving time in their log. Open a device in Settings › Devices and choose Pair; one device per vehicle.',
      'Gateways that post batches of positions use the device’s ingest token (shown once when the device is created; issue a new one from the device page if it is lost).',
      'The Fleet page lists vehicles without a device and devices not paired yet. A device that has sent nothing for 24 hours shows as offline on the Dashboard and, if you chose to, in your notifications.',
    ],
  },
  {
    id: 'hos-clocks',
    title: 'What each hours-of-service clock means',
    tags: ['hos', 'clock', 'drive', 'window', 'break', 'cycle', 'availability', '11-hour', '14-hour', '70-hour'],
    body: [
      'HoS Availability shows, for every driver, the time left on each clock. The smallest one is the driving time available now.',
      '- Drive (11 hours for US property carriers): driving time after 10 consecutive hours off duty.\n- Window (14 hours): the shift; once it has passed since coming on duty, no more driving until 10 hours off, whatever the breaks.\n- Break (8 hours): driving allowed before a 30-minute break from driving.\n- Cycle (60 hours in 7 days or 70 in 8): on-duty time in the rolling period; a 34-hour restart sets it back to zero.',
      'Bars turn orange under 2 hours and red under 30 minutes. You can be told when a driver on duty has less than 30 minutes of driving left (Notifications › Preferences).',
    ],
  },
  {
    id: 'hos-violations',
    title: 'What each violation means',
    tags: ['violation', 'hos', 'limit', 'break', 'cycle', 'egregious'],
    body: [
      'A violation is time a driver drove (or, in Canada, worked) past a limit. HoS Violations lists them newest first with the rule, how long it lasted and the log day.',
      '- 11-hour driving limit: drove past the most driving allowed after the off-duty rest.\n- 14-hour window: drove after the shift window closed.\n- 30-minute break: drove more than 8 hours without a 30-minute non-driving period.\n- 60/70-hour cycle: drove after reaching the on-duty hours of the rolling 7 or 8 days.\n- Canadian rules add the 13-hour daily driving, 14-hour daily on-duty, 16-hour shift and 10 hours off per day limits.',
      'Severity "Egregious" means more than 3 hours past the limit (FMCSA’s threshold). Open the log day to see the graph and correct records with an annotated edit.',
    ],
  },
  {
    id: 'ifta',
    title: 'IFTA fuel tax, step by step',
    tags: ['ifta', 'fuel', 'tax', 'quarter', 'jurisdiction', 'miles'],
    body: [
      'IFTA returns are filed each quarter with your base jurisdiction: miles driven and fuel bought in every state or province.',
      '- Miles: Fleetline splits each vehicle’s GPS route at state and provincial borders, so the miles per jurisdiction come from the positions your devices send.\n- Fuel: record fuel purchases with the jurisdiction, gallons (or litres) and receipt.\n- Open Fuel costs (IFTA), pick the quarter, check the miles and fuel per jurisdiction, and export the report for your return.',
      'Mark vehicles that do not need IFTA (light vehicles, intrastate only) as not IFTA-qualified on the vehicle record.',
    ],
  },
  {
    id: 'roles-permissions',
    title: 'Roles and permissions',
    tags: ['role', 'permission', 'admin', 'dispatcher', 'user', 'access'],
    body: [
      'Every user has a role. The built-in Admin role holds every permission of the organization; other roles hold the permissions you tick in Settings › Users & Roles › Roles.',
      '- Lists and screens need their permission: Dashboard (ORG_DASH_READ), Map (ASSET_LIST), HoS Logs (HOS_LIST), Violations (VIO_LIST), Availability (AVAILABILITY_LIST), Fuel costs (IFTA_LIST), Fleet performance (ANALYTICS_FLEET_PERFORMANCE).\n- Changing records needs the create, update or delete permission of the record type.\n- You cannot give a role a permission you do not hold yourself.',
      'Notifications follow permissions too: a user without HoS Violations never receives violation notifications. A user who is a member of groups hears only of the drivers and vehicles of those groups.',
    ],
  },
  {
    id: 'notifications',
    title: 'Notifications: what you are told and how',
    tags: ['notification', 'bell', 'email', 'alert', 'preferences'],
    body: [
      'The bell counts unread notifications and updates by itself. New lists the unread ones, All every one; open a notification to read its details and the link to what it is about.',
      'In Notifications › Preferences choose, per kind, whether you get it in the app and by e-mail: violations, drivers under 30 minutes of driving left, unidentified driving, devices offline for a day, log edits accepted or rejected, log days left uncertified, old data removed, and finished imports.',
    ],
  },
  {
    id: 'fleet-performance',
    title: 'Fleet performance figures',
    tags: ['analytics', 'utilization', 'idle', 'idling', 'speeding', 'distance', 'stops', 'fuel economy', 'mpg'],
    body: [
      'Analytics › Fleet Performance sums each vehicle’s day, kept up to date as positions arrive, over the dates you pick, per vehicle and per group.',
      '- Driving: time at 5 mph (8 km/h) or more. Idle: standing still with the ignition on.\n- Utilization: engine-on time (driving and idle) over all the hours of the range.\n- Speeding events: each time a vehicle goes above the limit set in Organization account (65 mph or 105 km/h unless changed).\n- Stops: standing still 5 minutes or more after moving.\n- Fuel economy: from the engine’s fuel counter where the truck reports it (a Teltonika device with a CAN adapter), else from the fuel bought after the first fill up to the last, over the distance driven between those fills; in miles per gallon (mpg) for an Imperial organization, litres per 100 km for a Metric one.',
      'The Fuel and idling tab compares each vehicle or driver with the fleet’s median: economy, idle time, idle share (idling over engine-on time, idling as the safety settings define it) and the fuel burnt idling. A vehicle’s page and a driver’s safety scorecard show the same figures for the last weeks.',
    ],
  },
];

/** Articles whose title, tags or text hold every word of the query (case-insensitive), best title matches first. */
export function searchArticles(query: string, articles: readonly HelpArticle[] = HELP_ARTICLES): HelpArticle[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...articles];
  return articles
    .map((a) => {
      const title = a.title.toLowerCase();
      const text = `${title} ${a.tags.join(' ')} ${a.body.join(' ')}`.toLowerCase();
      if (!words.every((w) => text.includes(w))) return null;
      return { a, score: words.filter((w) => title.includes(w) || a.tags.some((t) => t.includes(w))).length };
    })
    .filter((x): x is { a: HelpArticle; score: number } => x !== null)
    .sort((x, y) => y.score - x.score)
    .map((x) => x.a);
}
