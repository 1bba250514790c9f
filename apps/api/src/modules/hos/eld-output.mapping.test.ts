import { describe, expect, it } from 'vitest';
import { homeTerminalTime, lineDataCheckValue as lineCheck, parseEldFile, writeEldFile } from '@fleet/eld';
import { eldFileOf, multidayBasis, trailerNumbers, type EldSource, type EldSourceEvent } from './eld-output.mapping.ts';

// hos_events rows -> the ELD file model, without a database: every record type the API stores, and a
// round trip through the writer and the parser.

const ZONE = 'America/Chicago';
const NOW = Date.parse('2026-06-08T21:30:00Z');
const TRUCK = 'veh-1';
const SPARE = 'veh-2';
const DISPATCHER = 'user-dispatch';
let seq = 0;

function row(over: Partial<EldSourceEvent> & Pick<EldSourceEvent, 'eventType' | 'eventCode' | 'eventTime'>): EldSourceEvent {
  seq += 1;
  return {
    id: `e${seq}`,
    driverId: 'drv',
    vehicleId: TRUCK,
    sequenceId: seq,
    recordStatus: 1,
    recordOrigin: 1,
    logDate: over.eventTime.toISOString().slice(0, 10),
    latitude: 41.88,
    longitude: -87.63,
    locationDescription: '1 mi N of Chicago, IL',
    odometerM: 400_000_000,
    engineHours: null,
    annotation: null,
    diagnosticCode: null,
    createdByUserId: null,
    ...over,
  };
}
const at = (iso: string) => new Date(iso);

function source(): EldSource {
  seq = 0;
  const events: EldSourceEvent[] = [
    row({ eventType: 5, eventCode: 1, eventTime: at('2026-06-07T11:00:00Z'), recordOrigin: 2, latitude: null, longitude: null, locationDescription: null }),
    row({ eventType: 1, eventCode: 4, eventTime: at('2026-06-07T11:05:00Z'), recordOrigin: 2, annotation: 'Pre-trip inspection' }),
    row({ eventType: 1, eventCode: 3, eventTime: at('2026-06-07T11:30:00Z') }),
    row({ eventType: 2, eventCode: 1, eventTime: at('2026-06-07T12:30:00Z'), locationDescription: null }),
    // The office proposed an earlier start; the driver rejected it.
    row({
      eventType: 1,
      eventCode: 4,
      eventTime: at('2026-06-07T10:50:00Z'),
      recordStatus: 4,
      recordOrigin: 3,
      createdByUserId: DISPATCHER,
      annotation: 'Yard check began 5:50',
    }),
    row({ eventType: 1, eventCode: 1, eventTime: at('2026-06-07T17:00:00Z'), recordOrigin: 2 }),
    // Personal conveyance home: reduced precision.
    row({ eventType: 1, eventCode: 1, eventTime: at('2026-06-07T22:00:00Z'), recordOrigin: 2, latitude: 41.9, longitude: -87.6 }),
    row({ eventType: 3, eventCode: 1, eventTime: at('2026-06-07T22:00:00Z'), recordOrigin: 2, latitude: 41.9, longitude: -87.6 }),
    row({ eventType: 1, eventCode: 2, eventTime: at('2026-06-07T23:00:00Z'), recordOrigin: 2, latitude: null, longitude: null, locationDescription: 'Home' }),
    row({ eventType: 3, eventCode: 0, eventTime: at('2026-06-07T23:00:00Z'), recordOrigin: 2, latitude: null, longitude: null, locationDescription: null }),
    // Assumed from unidentified driving on the spare truck.
    row({ eventType: 1, eventCode: 3, eventTime: at('2026-06-08T13:00:00Z'), recordOrigin: 4, vehicleId: SPARE }),
    row({ eventType: 1, eventCode: 4, eventTime: at('2026-06-08T14:00:00Z'), recordOrigin: 4, vehicleId: SPARE }),
    row({
      eventType: 4,
      eventCode: 1,
      eventTime: at('2026-06-08T12:00:00Z'),
      recordOrigin: 2,
      logDate: '2026-06-07',
      vehicleId: null,
      latitude: null,
      longitude: null,
    }),
  ];
  const vehicleEvents: EldSourceEvent[] = [
    row({ driverId: null, vehicleId: SPARE, eventType: 1, eventCode: 3, eventTime: at('2026-06-08T13:00:00Z'), recordStatus: 2, sequenceId: 7 }),
    row({ driverId: null, vehicleId: SPARE, eventType: 1, eventCode: 4, eventTime: at('2026-06-08T14:00:00Z'), recordStatus: 2, sequenceId: 8 }),
    row({ driverId: null, vehicleId: TRUCK, eventType: 7, eventCode: 3, diagnosticCode: '5', eventTime: at('2026-06-07T12:00:00Z'), sequenceId: 0x1_0003 }),
    row({ driverId: null, vehicleId: TRUCK, eventType: 7, eventCode: 4, diagnosticCode: '5', eventTime: at('2026-06-07T20:00:00Z'), sequenceId: 0x1_0004 }),
  ];
  return {
    now: NOW,
    zone: ZONE,
    periodStart: '00:00',
    driver: {
      firstName: 'Marta',
      lastName: 'Kowalczyk',
      username: 'marta@carrier.test',
      licenseState: 'IL',
      licenseNumber: 'K12345678901',
      exempt: false,
      ruleset: 'US_PROPERTY_70_8',
    },
    coDriver: { firstName: 'Ann', lastName: 'Lee', username: 'ann@carrier.test' },
    carrier: { usdotNumber: '1234567', name: 'Prairie Freight Lines LLC' },
    eld: { registrationId: 'FLT0', identifier: 'FLTLN1', authenticationValue: 'c2lnbmVkIGJ5IHRoZSBwcm92aWRlcg' },
    comment: 'Officer 4471',
    current: {
      vehicleId: TRUCK,
      trailers: ['TR 4471', 'TR4472'],
      shippingDocuments: ['BOL-1', 'BOL-2'],
      position: { latitude: 41.52, longitude: -88.08 },
      odometerM: 412_790 * 1609.344,
    },
    vehicles: new Map([
      [TRUCK, { unitNumber: '101', vin: '1FUJGLDR3CLBP8834' }],
      [SPARE, { unitNumber: '117', vin: 'not-a-vin' }],
    ]),
    events,
    vehicleEvents,
    officeUsers: new Map([[DISPATCHER, { firstName: 'Marco', lastName: 'Reyes', username: 'dispatch@carrier.test' }]]),
  };
}

describe('the ELD file model of stored records', () => {
  it('writes a file that parses back into the same model', () => {
    const file = eldFileOf(source());
    const { text, fileName } = writeEldFile(file);
    expect(fileName).toBe('Kowal0146060826-000000000');
    expect(parseEldFile(text)).toEqual(file);
  });

  it('maps every field from the rows: lists, orders, originators, indicators and precision', () => {
    const src = source();
    const f = eldFileOf(src);
    expect(f.header).toMatchObject({
      cmv: { powerUnitNumber: '101', vin: '1FUJGLDR3CLBP8834', trailerNumbers: ['TR-4471', 'TR4472'] },
      carrier: { usdotNumber: '1234567' },
      multidayBasis: 8,
      periodStartTime: '00:00:00',
      timeZoneOffsetHours: 5,
      shippingDocumentNumber: 'BOL-1 BOL-2',
      current: { at: '2026-06-08T16:30:00', totalVehicleMiles: 412_790, totalEngineHours: null },
      outputFileComment: 'Officer 4471',
    });
    // The driver on top, the co-driver, support personnel who requested an edit, the unidentified profile.
    expect(f.users).toEqual([
      { accountType: 'D', lastName: 'Kowalczyk', firstName: 'Marta' },
      { accountType: 'D', lastName: 'Lee', firstName: 'Ann' },
      { accountType: 'S', lastName: 'Reyes', firstName: 'Marco' },
      { accountType: 'D', lastName: 'Unidentified', firstName: 'Driver' },
    ]);
    // The current truck first; a VIN the file cannot hold is left blank.
    expect(f.cmvs).toEqual([
      { powerUnitNumber: '101', vin: '1FUJGLDR3CLBP8834' },
      { powerUnitNumber: '117', vin: '' },
    ]);
    const byTime = (iso: string, type = 1) => f.events.find((e) => e.at === homeTerminalTime(iso, ZONE) && e.type === type)!;
    expect(f.events).toHaveLength(11);
    expect(byTime('2026-06-07T11:05:00Z')).toMatchObject({
      recordOrigin: 2,
      userOrder: 1,
      annotation: { username: 'marta@carrier.test', comment: 'Pre-trip inspection' },
    });
    expect(byTime('2026-06-07T11:30:00Z')).toMatchObject({
      recordOrigin: 1,
      userOrder: null,
      cmvOrder: 1,
      annotation: null,
      dataDiagnostic: false,
      malfunction: false,
    });
    expect(byTime('2026-06-07T10:50:00Z')).toMatchObject({
      recordStatus: 4,
      recordOrigin: 3,
      userOrder: 3,
      annotation: { username: 'dispatch@carrier.test' },
      dataDiagnostic: false,
    });
    expect(byTime('2026-06-07T22:00:00Z')).toMatchObject({ position: { kind: 'fix', reduced: true } });
    expect(byTime('2026-06-07T23:00:00Z')).toMatchObject({ position: { kind: 'manual' } });
    // The unidentified driving diagnostic logged at 12:00 and cleared at 20:00 marks the records between.
    expect(byTime('2026-06-07T12:30:00Z', 2)).toMatchObject({ position: { kind: 'fix', reduced: false }, dataDiagnostic: true });
    expect(byTime('2026-06-07T22:00:00Z')).toMatchObject({ dataDiagnostic: false });
    // Commas cannot stand in a comma-delimited file (4.8.2.1): the model already holds what the file will.
    expect(byTime('2026-06-07T11:05:00Z').annotation?.locationDescription).toBe('1 mi N of Chicago; IL');
    expect(byTime('2026-06-08T13:00:00Z')).toMatchObject({ recordOrigin: 4, userOrder: 1, cmvOrder: 2 });
    expect(f.events.every((e) => e.accumulatedVehicleMiles === null && e.elapsedEngineHours === null)).toBe(true);
    expect(f.certifications).toEqual([{ sequenceId: 13, code: 1, at: '2026-06-08T07:00:00', certifiedDate: '2026-06-07', cmvOrder: null }]);
    expect(f.loginLogouts).toEqual([
      { sequenceId: 1, code: 1, username: 'marta@carrier.test', at: '2026-06-07T06:00:00', totalVehicleMiles: 248_548, totalEngineHours: null },
    ]);
    // Sequence ids wrap past FFFF (7.24); every list most recent first.
    expect(f.malfunctions.map((m) => [m.sequenceId, m.code, m.diagnosticCode, m.cmvOrder])).toEqual([
      [4, 4, '5', 1],
      [3, 3, '5', 1],
    ]);
    expect(f.unidentifiedEvents.map((e) => [e.recordStatus, e.code, e.cmvOrder])).toEqual([
      [2, 4, 2],
      [2, 3, 2],
    ]);
    expect(f.events.map((e) => e.at)).toEqual([...f.events.map((e) => e.at)].sort().reverse());
    expect(f.enginePower).toEqual([]);
  });

  it('writes USDOT 0 for a carrier without one, and leaves out what it cannot know', () => {
    const src = source();
    const f = eldFileOf({
      ...src,
      carrier: { usdotNumber: null, name: 'New Carrier' },
      coDriver: null,
      current: { ...src.current, vehicleId: null, position: null, odometerM: null },
    });
    expect(f.header.carrier.usdotNumber).toBe('0');
    expect(f.header.cmv).toEqual({ powerUnitNumber: '', vin: '', trailerNumbers: ['TR-4471', 'TR4472'] });
    expect(f.header.current.position).toEqual({ kind: 'none' });
    expect(f.users.map((u) => u.lastName)).toEqual(['Kowalczyk', 'Reyes', 'Unidentified']);
    expect(() => writeEldFile(f)).not.toThrow();
  });

  it('engine records: the power-up and shut-down section, miles and hours since the power-up, current totals (decision 0155)', () => {
    const src = source();
    const MILE = 1609.344;
    const engineEvents = [
      // The power-up before the period: counted from, not listed.
      { ...row({ eventType: 6, eventCode: 1, eventTime: at('2026-05-30T09:00:00Z'), odometerM: 100 * MILE, engineHours: 10 }), before: true },
      row({
        eventType: 6,
        eventCode: 1,
        eventTime: at('2026-06-07T11:20:00Z'),
        odometerM: 400_000_000 - 25.5 * MILE,
        engineHours: 4000.25,
        logDate: '2026-06-07',
      }),
      row({
        eventType: 6,
        eventCode: 4,
        eventTime: at('2026-06-07T22:10:00Z'),
        odometerM: 400_000_000 + 300 * MILE,
        engineHours: 4011.04,
        latitude: 41.9,
        longitude: -87.6,
        driverId: null,
        logDate: '2026-06-07',
      }),
    ];
    // The records before the power-up read what it read (a total never goes down, issue 46).
    const powerUpAt = at('2026-06-07T11:20:00Z');
    const events = src.events.map((e) =>
      e.eventType === 1 && e.eventCode === 3 && e.vehicleId === TRUCK
        ? { ...e, engineHours: 4002.5 }
        : e.vehicleId === TRUCK && e.eventTime < powerUpAt
          ? { ...e, odometerM: 400_000_000 - 25.5 * MILE }
          : e,
    );
    const f = eldFileOf({
      ...src,
      events,
      engineEvents,
      current: { ...src.current, engineHours: 4012.37 },
      days: new Map([['2026-06-07', { trailers: ['TR 9'], shippingDocuments: ['BOL-7'] }]]),
    });
    const drive = f.events.find((e) => e.type === 1 && e.code === 3 && e.cmvOrder === 1)!;
    // 25.5 miles and 2.25 hours since the 11:20 power-up: whole miles and tenths, rounded down.
    expect([drive.accumulatedVehicleMiles, drive.elapsedEngineHours]).toEqual([25, 2.2]);
    // The certification has no vehicle; the spare truck has no power-up: nothing to count from.
    expect(f.events.find((e) => e.cmvOrder === 2)!.accumulatedVehicleMiles).toBeNull();
    expect(f.header.current.totalEngineHours).toBe(4012.3);
    expect(f.enginePower.map((p) => [p.code, p.at, p.totalVehicleMiles, p.totalEngineHours, p.position])).toEqual([
      [4, '2026-06-07T17:10:00', 248_848, 4011, { kind: 'fix', latitude: 41.9, longitude: -87.6, reduced: true }],
      [1, '2026-06-07T06:20:00', 248_522, 4000.2, { kind: 'fix', latitude: 41.88, longitude: -87.63, reduced: false }],
    ]);
    const { text } = writeEldFile(f);
    const lines = text.split(/\r\n|\r|\n/);
    const section = lines.indexOf('CMV Engine Power-Up and Shut Down Activity:');
    expect(lines.slice(section + 1, section + 3)).toEqual([
      `${f.enginePower[0]!.sequenceId.toString(16).toUpperCase()},4,060726,171000,248848,4011.0,41.9,-87.6,101,1FUJGLDR3CLBP8834,TR-9,BOL-7,${lineCheck(`${f.enginePower[0]!.sequenceId.toString(16).toUpperCase()},4,060726,171000,248848,4011.0,41.9,-87.6,101,1FUJGLDR3CLBP8834,TR-9,BOL-7`)}`,
      `${f.enginePower[1]!.sequenceId.toString(16).toUpperCase()},1,060726,062000,248522,4000.2,41.88,-87.63,101,1FUJGLDR3CLBP8834,TR-9,BOL-7,${lineCheck(`${f.enginePower[1]!.sequenceId.toString(16).toUpperCase()},1,060726,062000,248522,4000.2,41.88,-87.63,101,1FUJGLDR3CLBP8834,TR-9,BOL-7`)}`,
    ]);
    expect(parseEldFile(text)).toEqual(f);
  });

  it('multiday basis per ruleset and trailer numbers within 32 characters', () => {
    expect(['US_PROPERTY_70_8', 'US_PROPERTY_60_7', 'CA_SOUTH_CYCLE_1', 'CA_INTRASTATE', 'TX_INTRASTATE'].map((r) => multidayBasis(r as never))).toEqual([
      8, 7, 7, 8, 7,
    ]);
    // Issue 72: the cycle days of the state and Mexican rulesets (F.S. 316.302(2)(c), §395.1(h), NOM-087's 7-day week).
    const others = [
      'FL_INTRASTATE_70_7',
      'FL_INTRASTATE_80_8',
      'AK_PROPERTY_70_7',
      'AK_PROPERTY_80_8',
      'AK_PASSENGER_70_7',
      'AK_PASSENGER_80_8',
      'MX_NOM_087',
    ] as const;
    expect(others.map((r) => multidayBasis(r))).toEqual([7, 8, 7, 8, 7, 8, 7]);
    expect(trailerNumbers(['A1', 'B 2', '', 'C3'])).toEqual(['A1', 'B-2', 'C3']);
    expect(trailerNumbers(['ABCDEFGHIJKLMN', '0123456789', 'XXXXXXXXXX', 'YYYYYY']).join(' ').length).toBeLessThanOrEqual(32);
  });
});
