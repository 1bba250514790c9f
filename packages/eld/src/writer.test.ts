import { describe, expect, it } from 'vitest';
import { eventDataCheckValue, fileDataCheckValue, lineDataCheckValue } from './check-values.ts';
import { EldInputError } from './errors.ts';
import type { EldEvent, EldFile } from './model.ts';
import { SEGMENT_ORDER, SEGMENT_TITLES } from './segments.ts';
import { writeEldFile } from './writer.ts';

function event(overrides: Partial<EldEvent> = {}): EldEvent {
  return {
    sequenceId: 0x1f2c,
    recordStatus: 1,
    recordOrigin: 2,
    type: 1,
    code: 3,
    at: '2026-06-01T14:30:00',
    accumulatedVehicleMiles: 12,
    elapsedEngineHours: 1.5,
    position: { kind: 'fix', latitude: 41.88, longitude: -87.63, reduced: false },
    distanceSinceLastValidCoordinates: 0,
    cmvOrder: 1,
    userOrder: 1,
    malfunction: false,
    dataDiagnostic: false,
    annotation: null,
    ...overrides,
  };
}

function file(overrides: Partial<EldFile> = {}): EldFile {
  return {
    header: {
      driver: { lastName: 'Doe', firstName: 'Jane', username: 'jdoe', licenseState: 'IL', licenseNumber: 'D1234567' },
      coDriver: null,
      cmv: { powerUnitNumber: '101', vin: '1FUJGLDR3CLBP8834', trailerNumbers: ['TR1', 'TR2'] },
      carrier: { usdotNumber: '1234567', name: 'Prairie Freight' },
      multidayBasis: 8,
      periodStartTime: '00:00:00',
      timeZoneOffsetHours: 5,
      shippingDocumentNumber: 'BOL-1',
      exempt: false,
      current: {
        at: '2026-06-01T16:00:00',
        position: { kind: 'fix', latitude: 41.5, longitude: -88.1, reduced: false },
        totalVehicleMiles: 412_345,
        totalEngineHours: 10_234.5,
      },
      eld: { registrationId: 'FL01', identifier: 'FLT001', authenticationValue: 'c2lnbmVkIGJ5IHRoZSBwcm92aWRlcg' },
      outputFileComment: '',
    },
    users: [{ accountType: 'D', lastName: 'Doe', firstName: 'Jane' }],
    cmvs: [{ powerUnitNumber: '101', vin: '1FUJGLDR3CLBP8834' }],
    events: [event()],
    certifications: [],
    malfunctions: [],
    loginLogouts: [],
    enginePower: [],
    unidentifiedEvents: [],
    ...overrides,
  };
}

function linesOf(text: string): string[] {
  return text.split('\r\n').slice(0, -1);
}

/** The data lines of one segment, without its title. */
function segment(text: string, key: keyof typeof SEGMENT_TITLES): string[] {
  const lines = linesOf(text);
  const start = lines.indexOf(SEGMENT_TITLES[key]) + 1;
  const end = lines.findIndex((l, i) => i >= start && Object.values(SEGMENT_TITLES).includes(l as never));
  return lines.slice(start, end);
}

describe('writeEldFile layout (4.8.2.1)', () => {
  it('writes every segment title once, in the order of 4.8.2.1, even when its list is empty', () => {
    const titles = linesOf(writeEldFile(file()).text).filter((l) => Object.values(SEGMENT_TITLES).includes(l as never));
    expect(titles).toEqual(SEGMENT_ORDER.map((k) => SEGMENT_TITLES[k]));
  });

  it('ends every data line with the check value of the rest of the line, and titles with none', () => {
    const lines = linesOf(writeEldFile(file()).text);
    const data = lines.slice(0, -1).filter((l) => !Object.values(SEGMENT_TITLES).includes(l as never));
    expect(data.length).toBe(7 + 1 + 1 + 1);
    for (const line of data) {
      const cut = line.lastIndexOf(',');
      expect(line.slice(cut + 1)).toBe(lineDataCheckValue(line.slice(0, cut)));
    }
  });

  it('ends with the file data check value of all line check values, on its own line after the End of File title', () => {
    const lines = linesOf(writeEldFile(file()).text);
    const checks = lines
      .slice(0, -2)
      .filter((l) => l.includes(','))
      .map((l) => l.slice(-2));
    expect(lines.at(-2)).toBe('End of File:');
    expect(lines.at(-1)).toBe(fileDataCheckValue(checks));
  });

  it('ends every line, the last included, with CR LF', () => {
    const { text } = writeEldFile(file());
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('writes bare carriage returns when asked', () => {
    const { text } = writeEldFile(file(), { lineEnding: '\r' });
    expect(text).not.toContain('\n');
    expect(text.split('\r')[0]).toBe('ELD File Header Segment:');
  });

  it('writes the seven header lines with their fields in order', () => {
    const header = segment(writeEldFile(file()).text, 'header').map((l) => l.slice(0, l.lastIndexOf(',')));
    expect(header).toEqual([
      'Doe,Jane,jdoe,IL,D1234567',
      ',,',
      '101,1FUJGLDR3CLBP8834,TR1 TR2',
      '1234567,Prairie Freight,8,000000,05',
      'BOL-1,0',
      '060126,160000,41.50,-88.10,412345,10234.5',
      'FL01,FLT001,c2lnbmVkIGJ5IHRoZSBwcm92aWRlcg,',
    ]);
  });

  it('writes a line without co-driver with check value 96', () => {
    expect(segment(writeEldFile(file()).text, 'header')[1]).toBe(',,,96');
  });

  it('writes the exempt configuration as E', () => {
    const exempt = file();
    expect(segment(writeEldFile({ ...exempt, header: { ...exempt.header, exempt: true } }).text, 'header')[4]).toMatch(/^BOL-1,E,/);
  });

  it('writes an event row with its fields in order and the event data check value before the line check value', () => {
    const [row] = segment(writeEldFile(file()).text, 'events');
    // 6A is worked by hand in check-values.test.ts for these very fields (unit 101, username jdoe).
    const body = '1F2C,1,2,1,3,060126,143000,12,1.5,41.88,-87.63,0,1,1,0,0,6A';
    expect(row).toBe(`${body},${lineDataCheckValue(body)}`);
  });

  it('computes the event check value with the power unit of the event CMV and the driver username', () => {
    const [row] = segment(writeEldFile(file({ cmvs: [{ powerUnitNumber: '55', vin: '' }] })).text, 'events');
    expect(row?.split(',')[16]).toBe(eventDataCheckValue(['1', '3', '060126', '143000', '12', '1.5', '41.88', '-87.63', '55', 'jdoe']));
  });

  it('lists the user list and the CMV list in the order given, numbered from 1', () => {
    const text = writeEldFile(
      file({
        users: [
          { accountType: 'D', lastName: 'Doe', firstName: 'Jane' },
          { accountType: 'S', lastName: 'Okafor', firstName: 'Ngozi' },
        ],
        cmvs: [
          { powerUnitNumber: '101', vin: '1FUJGLDR3CLBP8834' },
          { powerUnitNumber: '7', vin: '' },
        ],
      }),
    ).text;
    expect(segment(text, 'users').map((l) => l.slice(0, -3))).toEqual(['1,D,Doe,Jane', '2,S,Okafor,Ngozi']);
    expect(segment(text, 'cmvs').map((l) => l.slice(0, -3))).toEqual(['1,101,1FUJGLDR3CLBP8834', '2,7,']);
  });
});

describe('writeEldFile values', () => {
  it('puts the most recent event on top, and the later record first at the same time', () => {
    const events = [
      event({ sequenceId: 1, at: '2026-06-01T06:00:00' }),
      event({ sequenceId: 3, at: '2026-06-01T10:20:00', recordStatus: 2 }),
      event({ sequenceId: 4, at: '2026-06-01T10:20:00' }),
      event({ sequenceId: 2, at: '2026-06-01T08:00:00' }),
    ];
    const ids = segment(writeEldFile(file({ events })).text, 'events').map((l) => l.split(',')[0]);
    expect(ids).toEqual(['4', '3', '2', '1']);
  });

  it('lists only annotated events in the annotations segment, with the originator username and typed location', () => {
    const events = [
      event({ sequenceId: 1, at: '2026-06-01T06:00:00' }),
      event({
        sequenceId: 2,
        at: '2026-06-01T10:15:00',
        position: { kind: 'manual' },
        annotation: { username: 'jdoe', comment: 'Forgot to switch', locationDescription: '3mi N IL Joliet' },
      }),
    ];
    const rows = segment(writeEldFile(file({ events })).text, 'annotations');
    expect(rows.map((l) => l.slice(0, -3))).toEqual(['2,jdoe,Forgot to switch,060126,101500,3mi N IL Joliet']);
  });

  it('replaces commas and line breaks inside values with semicolons', () => {
    const events = [event({ annotation: { username: 'jdoe', comment: 'Fuel, then\r\nlunch', locationDescription: '' } })];
    const base = file({ events });
    const text = writeEldFile({ ...base, header: { ...base.header, carrier: { usdotNumber: '1234567', name: 'Acme, Inc.' } } }).text;
    expect(segment(text, 'annotations')[0]).toContain(',Fuel; then;lunch,');
    expect(segment(text, 'header')[3]).toContain(',Acme; Inc.,');
  });

  it('writes names with accents and other non-ASCII characters in ASCII', () => {
    const base = file();
    const text = writeEldFile({ ...base, header: { ...base.header, driver: { ...base.header.driver, lastName: 'Núñez', firstName: 'Søren' } } }).text;
    expect(segment(text, 'header')[0]).toMatch(/^Nunez,Soren,jdoe,/);
    expect(text).toMatch(/^[\x20-\x7e\r\n]*$/);
  });

  it('cuts an annotation to 60 characters', () => {
    const events = [event({ annotation: { username: 'jdoe', comment: 'a'.repeat(80), locationDescription: '' } })];
    expect(segment(writeEldFile(file({ events })).text, 'annotations')[0]?.split(',')[2]).toHaveLength(60);
  });

  it('writes reduced precision with one decimal, and X, M, E markers', () => {
    const events = [
      event({ sequenceId: 4, at: '2026-06-01T09:00:00', position: { kind: 'fix', latitude: 41.88, longitude: -87.63, reduced: true } }),
      event({ sequenceId: 3, at: '2026-06-01T08:00:00', position: { kind: 'none' }, distanceSinceLastValidCoordinates: 3 }),
      event({ sequenceId: 2, at: '2026-06-01T07:00:00', position: { kind: 'manual' } }),
      event({ sequenceId: 1, at: '2026-06-01T06:00:00', position: { kind: 'malfunction' }, malfunction: true }),
    ];
    const rows = segment(writeEldFile(file({ events })).text, 'events').map((l) => l.split(',').slice(9, 12).join(','));
    expect(rows).toEqual(['41.9,-87.6,0', 'X,X,3', 'M,M,0', 'E,E,0']);
  });

  it('caps the distance since the last valid coordinates at 6', () => {
    const events = [event({ position: { kind: 'none' }, distanceSinceLastValidCoordinates: 14 })];
    expect(segment(writeEldFile(file({ events })).text, 'events')[0]?.split(',')[11]).toBe('6');
  });

  it('leaves miles and engine hours blank when an edit cannot know them', () => {
    const events = [event({ accumulatedVehicleMiles: null, elapsedEngineHours: null })];
    expect(
      segment(writeEldFile(file({ events })).text, 'events')[0]
        ?.split(',')
        .slice(7, 9),
    ).toEqual(['', '']);
  });

  it('writes certification, malfunction, login and engine rows with their own fields', () => {
    const text = writeEldFile(
      file({
        certifications: [{ sequenceId: 0x20, code: 2, at: '2026-06-02T05:50:00', certifiedDate: '2026-06-01', cmvOrder: 1 }],
        malfunctions: [
          { sequenceId: 0x21, code: 1, diagnosticCode: 'L', at: '2026-06-02T09:10:00', totalVehicleMiles: 412_500, totalEngineHours: 10_240.1, cmvOrder: 1 },
        ],
        loginLogouts: [{ sequenceId: 0x22, code: 1, username: 'jdoe', at: '2026-06-02T05:40:00', totalVehicleMiles: 412_400, totalEngineHours: 10_239 }],
        enginePower: [
          {
            sequenceId: 0x23,
            code: 2,
            at: '2026-06-02T18:00:00',
            totalVehicleMiles: 412_600,
            totalEngineHours: 10_250,
            position: { kind: 'fix', latitude: 41.88, longitude: -87.63, reduced: true },
            powerUnitNumber: '101',
            vin: '1FUJGLDR3CLBP8834',
            trailerNumbers: ['TR1'],
            shippingDocumentNumber: 'BOL-1',
          },
        ],
      }),
    ).text;
    expect(segment(text, 'certifications')[0]?.slice(0, -3)).toBe('20,2,060226,055000,060126,1');
    expect(segment(text, 'malfunctions')[0]?.slice(0, -3)).toBe('21,1,L,060226,091000,412500,10240.1,1');
    expect(segment(text, 'loginLogouts')[0]?.slice(0, -3)).toBe('22,1,jdoe,060226,054000,412400,10239.0');
    expect(segment(text, 'enginePower')[0]?.slice(0, -3)).toBe('23,2,060226,180000,412600,10250.0,41.9,-87.6,101,1FUJGLDR3CLBP8834,TR1,BOL-1');
  });

  it('writes unidentified records without user order or diagnostic flag, checked with the unidentified username', () => {
    const { userOrder: _u, dataDiagnostic: _d, annotation: _a, ...recorded } = event({ recordOrigin: 1 });
    const rows = (username?: string): string[] =>
      segment(writeEldFile(file({ unidentifiedEvents: [recorded] }), username ? { unidentifiedUsername: username } : {}).text, 'unidentified');
    const [row] = rows();
    expect(row?.split(',')).toHaveLength(16);
    expect(row?.split(',')[14]).toBe(eventDataCheckValue(['1', '3', '060126', '143000', '12', '1.5', '41.88', '-87.63', '101', 'Unidentified']));
    expect(rows('UNIDENT1')[0]?.split(',')[14]).toBe(eventDataCheckValue(['1', '3', '060126', '143000', '12', '1.5', '41.88', '-87.63', '101', 'UNIDENT1']));
  });

  it('names the file from the driver and the current date', () => {
    expect(writeEldFile(file()).fileName).toBe('Doe__6728060126-000000000');
    expect(writeEldFile(file(), { fileNameSuffix: 'ABC123XYZ' }).fileName).toBe('Doe__6728060126-ABC123XYZ');
  });
});

describe('writeEldFile refuses input the file cannot hold', () => {
  const cases: [string, EldFile, string][] = [
    ['a date-time with an offset', file({ events: [event({ at: '2026-06-01T14:30:00-05:00' })] }), 'events[0].at'],
    ['an impossible date', file({ events: [event({ at: '2026-02-30T14:30:00' })] }), 'events[0].at'],
    ['a code that is not of its event type', file({ events: [event({ type: 2, code: 3 })] }), 'events[0].code'],
    ['a user order outside the user list', file({ events: [event({ userOrder: 2 })] }), 'events[0].userOrder'],
    ['a CMV order outside the CMV list', file({ events: [event({ cmvOrder: 5 })] }), 'events[0].cmvOrder'],
    ['a sequence id above FFFF', file({ events: [event({ sequenceId: 0x10000 })] }), 'events[0].sequenceId'],
    [
      'a latitude beyond the pole',
      file({ events: [event({ position: { kind: 'fix', latitude: 95, longitude: 0, reduced: false } })] }),
      'events[0].position.latitude',
    ],
    [
      'a malfunction with a diagnostic code',
      file({
        malfunctions: [{ sequenceId: 1, code: 1, diagnosticCode: '5', at: '2026-06-01T06:00:00', totalVehicleMiles: 1, totalEngineHours: 1, cmvOrder: null }],
      }),
      'malfunctions[0].diagnosticCode',
    ],
  ];
  it.each(cases)('refuses %s, naming the field', (_what, input, path) => {
    expect(() => writeEldFile(input)).toThrow(EldInputError);
    try {
      writeEldFile(input);
    } catch (e) {
      expect((e as EldInputError).path).toBe(path);
    }
  });

  it('refuses an ELD registration id that is not 4 characters', () => {
    const base = file();
    expect(() => writeEldFile({ ...base, header: { ...base.header, eld: { ...base.header.eld, registrationId: 'FL0' } } })).toThrow(
      'header.eld.registrationId',
    );
  });

  it('refuses a trailer number with a space, which the file could not tell from two trailers', () => {
    const base = file();
    expect(() => writeEldFile({ ...base, header: { ...base.header, cmv: { ...base.header.cmv, trailerNumbers: ['TR 1'] } } })).toThrow(
      'header.cmv.trailerNumbers[0]',
    );
  });
});
