// Layout of the ELD output file (Appendix A 4.8.2.1): segment titles in file order and the fields of
// each line, without the Line Data Check Value that ends every data line. The eCFR text we could read
// has these tables stripped; the order below agrees with the shared domain reference (hos-rules.md
// 2.4) and with independent public implementations (decision 0110 lists them). The parser names
// fields in its errors from here.

export const SEGMENT_TITLES = {
  header: 'ELD File Header Segment:',
  users: 'User List:',
  cmvs: 'CMV List:',
  events: 'ELD Event List:',
  annotations: 'ELD Event Annotations or Comments:',
  certifications: "Driver's Certification/Recertification Actions:",
  malfunctions: 'Malfunctions and Data Diagnostic Events:',
  loginLogouts: 'ELD Login/Logout Report:',
  enginePower: 'CMV Engine Power-Up and Shut Down Activity:',
  unidentified: 'Unidentified Driver Profile Records:',
  endOfFile: 'End of File:',
} as const;

export type SegmentKey = keyof typeof SEGMENT_TITLES;

export const SEGMENT_ORDER: readonly SegmentKey[] = [
  'header',
  'users',
  'cmvs',
  'events',
  'annotations',
  'certifications',
  'malfunctions',
  'loginLogouts',
  'enginePower',
  'unidentified',
  'endOfFile',
];

/** The seven header lines (4.8.2.1.1). */
export const HEADER_FIELDS: readonly (readonly string[])[] = [
  ["Driver's Last Name", "Driver's First Name", 'ELD Username (driver)', "Driver's License Issuing State", "Driver's License Number"],
  ["Co-Driver's Last Name", "Co-Driver's First Name", 'ELD Username (co-driver)'],
  ['CMV Power Unit Number', 'CMV VIN', 'Trailer Number(s)'],
  ["Carrier's USDOT Number", 'Carrier Name', 'Multiday Basis Used', '24-Hour Period Starting Time', 'Time Zone Offset from UTC'],
  ['Shipping Document Number', 'Exempt Driver Configuration'],
  ['Current Date', 'Current Time', 'Current Latitude', 'Current Longitude', 'Current Total Vehicle Miles', 'Current Total Engine Hours'],
  ['ELD Registration ID', 'ELD Identifier', 'ELD Authentication Value', 'Output File Comment'],
];

const EVENT_HEAD = [
  'Event Sequence ID Number',
  'Event Record Status',
  'Event Record Origin',
  'Event Type',
  'Event Code',
  'Event Date',
  'Event Time',
  'Accumulated Vehicle Miles',
  'Elapsed Engine Hours',
  'Event Latitude',
  'Event Longitude',
  'Distance Since Last Valid Coordinates',
  'Corresponding CMV Order Number',
] as const;

/** Fields of each repeating segment (4.8.2.1.2-4.8.2.1.10). */
export const LIST_FIELDS = {
  users: ['Order Number', 'ELD Account Type', 'Last Name', 'First Name'],
  cmvs: ['Order Number', 'CMV Power Unit Number', 'CMV VIN'],
  events: [
    ...EVENT_HEAD,
    'User Order Number (Record Originator)',
    'Malfunction Indicator Status',
    'Data Diagnostic Event Indicator Status',
    'Event Data Check Value',
  ],
  annotations: [
    'Event Sequence ID Number',
    'ELD Username (Record Originator)',
    'Comment/Annotation',
    'Event Date',
    'Event Time',
    "Driver's Location Description",
  ],
  certifications: ['Event Sequence ID Number', 'Event Code', 'Event Date', 'Event Time', 'Date of the Certified Record', 'Corresponding CMV Order Number'],
  malfunctions: [
    'Event Sequence ID Number',
    'Event Code',
    'Malfunction/Diagnostic Code',
    'Event Date',
    'Event Time',
    'Total Vehicle Miles',
    'Total Engine Hours',
    'Corresponding CMV Order Number',
  ],
  loginLogouts: ['Event Sequence ID Number', 'Event Code', 'ELD Username', 'Event Date', 'Event Time', 'Total Vehicle Miles', 'Total Engine Hours'],
  enginePower: [
    'Event Sequence ID Number',
    'Event Code',
    'Event Date',
    'Event Time',
    'Total Vehicle Miles',
    'Total Engine Hours',
    'Event Latitude',
    'Event Longitude',
    'CMV Power Unit Number',
    'CMV VIN',
    'Trailer Number(s)',
    'Shipping Document Number',
  ],
  unidentified: [...EVENT_HEAD, 'Malfunction Indicator Status', 'Event Data Check Value'],
} as const satisfies Record<Exclude<SegmentKey, 'header' | 'endOfFile'>, readonly string[]>;

export type ListSegment = keyof typeof LIST_FIELDS;

/** Username of the unidentified driver profile when the caller names none; it feeds those records' event check values. */
export const DEFAULT_UNIDENTIFIED_USERNAME = 'Unidentified';
