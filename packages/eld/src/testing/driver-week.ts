// A deterministic ELD file model for tests and the bench: one driver's current day and previous days
// (8 by default) with every event type, edits that leave inactive records (driver edit, carrier
// proposal accepted as pending and one rejected), annotations with a typed location, certifications
// and a re-certification, a positioning malfunction and an unidentified-driving diagnostic, logins,
// engine power cycles with personal conveyance at reduced precision, and unidentified driver
// records, one of them assumed by the driver. Sequence ids wrap past FFFF on the way.

import type {
  EldCertification,
  EldEnginePower,
  EldEvent,
  EldFile,
  EldLoginLogout,
  EldMalfunction,
  EldPosition,
  EldUnidentifiedEvent,
  LocalDate,
  LocalDateTime,
} from '../model.ts';

export interface DriverWeekOptions {
  /** Days in the file, the last one being the current day. Default 8. */
  readonly days?: number;
  /** The current day. Default 2026-06-08. */
  readonly lastDay?: LocalDate;
}

const DRIVER = { lastName: 'Kowalczyk', firstName: 'Marta', username: 'mkowalczyk', licenseState: 'IL', licenseNumber: 'K12345678901' };
const DISPATCHER = 'nokafor';
// User list order numbers (most recent user on top; 2 is the co-driver, 4 the unidentified profile).
const USER = { driver: 1, dispatcher: 3 } as const;

function addDays(date: LocalDate, days: number): LocalDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function minutes(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

function at(date: LocalDate, hhmm: string): LocalDateTime {
  return `${date}T${hhmm}:00`;
}

/** One driver's ELD file, about 24 records a day. */
export function driverWeek(options: DriverWeekOptions = {}): EldFile {
  const days = options.days ?? 8;
  const lastDay = options.lastDay ?? '2026-06-08';
  let seq = 0xff80;
  const next = (): number => {
    const id = seq;
    seq = (seq + 1) & 0xffff;
    return id;
  };

  const events: EldEvent[] = [];
  const certifications: EldCertification[] = [];
  const malfunctions: EldMalfunction[] = [];
  const loginLogouts: EldLoginLogout[] = [];
  const enginePower: EldEnginePower[] = [];
  const unidentifiedEvents: EldUnidentifiedEvent[] = [];
  let odometer = 412_345;
  let engineHours = 10_234.5;
  let lat = 41.88;
  let lon = -87.63;

  for (let d = 0; d < days; d++) {
    const date = addDays(lastDay, d - days + 1);
    // Older days on the second truck, recent ones on the first (CMV list is most recent first).
    const cmvOrder = d < 3 ? 2 : 1;
    const truck = cmvOrder === 1 ? { unit: '101', vin: '1FUJGLDR3CLBP8834' } : { unit: '7', vin: '-3AKJHHDR5KSKA1234' };
    const powerUp = minutes('05:45');
    let driven = 0; // miles since power-up
    let lastMinute = powerUp;
    let driving = false;
    const positionNow = (): EldPosition => {
      lat = Math.round((lat + 0.07) * 100) / 100;
      lon = Math.round((lon - 0.11) * 100) / 100;
      return { kind: 'fix', latitude: lat, longitude: lon, reduced: false };
    };
    const advance = (hhmm: string): void => {
      const m = minutes(hhmm);
      if (driving) driven += Math.round(((m - lastMinute) * 55) / 60);
      lastMinute = m;
    };
    const elapsed = (hhmm: string): number => Math.floor((minutes(hhmm) - powerUp) / 6) / 10;
    const positioningMalfunction = d === 5;
    const diagnosticActive = d >= 6;
    const malfunctionAt = (hhmm: string): boolean => positioningMalfunction && hhmm >= '09:10' && hhmm < '13:00';

    const event = (hhmm: string, type: 1 | 2 | 3, code: number, extra: Partial<EldEvent> = {}): EldEvent => {
      advance(hhmm);
      const inMalfunction = malfunctionAt(hhmm);
      const automatic = type === 2 || (type === 1 && code === 3);
      const e: EldEvent = {
        sequenceId: next(),
        recordStatus: 1,
        recordOrigin: automatic ? 1 : 2,
        type,
        code,
        at: at(date, hhmm),
        accumulatedVehicleMiles: driven,
        elapsedEngineHours: elapsed(hhmm),
        position: inMalfunction ? { kind: 'malfunction' } : positionNow(),
        distanceSinceLastValidCoordinates: 0,
        cmvOrder,
        userOrder: automatic ? null : USER.driver,
        malfunction: inMalfunction,
        dataDiagnostic: diagnosticActive,
        annotation: null,
        ...extra,
      };
      events.push(e);
      if (type === 1) driving = code === 3;
      return e;
    };
    const totals = (hhmm: string): { totalVehicleMiles: number; totalEngineHours: number } => ({
      totalVehicleMiles: odometer + driven,
      totalEngineHours: Math.round((engineHours + elapsed(hhmm)) * 10) / 10,
    });

    loginLogouts.push({ sequenceId: next(), code: 1, username: DRIVER.username, at: at(date, '05:40'), ...totals('05:45') });
    enginePower.push({
      sequenceId: next(),
      code: 1,
      at: at(date, '05:45'),
      ...totals('05:45'),
      position: positionNow(),
      powerUnitNumber: truck.unit,
      vin: truck.vin,
      trailerNumbers: d % 2 === 0 ? ['TR4471', 'TR4472'] : ['TR88'],
      shippingDocumentNumber: `BOL-${20_260_600 + d}`,
    });
    if (d > 0) certifications.push({ sequenceId: next(), code: 1, at: at(date, '05:50'), certifiedDate: addDays(date, -1), cmvOrder });
    if (d === 4) certifications.push({ sequenceId: next(), code: 2, at: at(date, '05:52'), certifiedDate: addDays(date, -2), cmvOrder });
    if (d === 6) malfunctions.push({ sequenceId: next(), code: 3, diagnosticCode: '5', at: at(date, '05:55'), ...totals('05:55'), cmvOrder });
    if (d === 7) malfunctions.push({ sequenceId: next(), code: 4, diagnosticCode: '5', at: at(date, '05:55'), ...totals('05:55'), cmvOrder });

    event('06:00', 1, 4, d === 0 ? { annotation: { username: DRIVER.username, comment: 'Pre-trip inspection', locationDescription: '' } } : {});
    event('06:30', 1, 3);
    event('07:30', 2, 1);
    // No fix for the last 3 miles: X with the distance since the last valid coordinates.
    event('08:30', 2, 1, { position: { kind: 'none' }, distanceSinceLastValidCoordinates: 3 });
    if (positioningMalfunction) malfunctions.push({ sequenceId: next(), code: 1, diagnosticCode: 'L', at: at(date, '09:10'), ...totals('09:10'), cmvOrder });
    event('09:30', 2, 1);
    event('10:00', 1, 4, { annotation: { username: DRIVER.username, comment: 'Fuel stop', locationDescription: '' } });
    if (d === 2) {
      // Driver edit: the break started at 10:15, not 10:20. The original stays, inactive-changed.
      event('10:20', 1, 1, { recordStatus: 2 });
      event('10:15', 1, 1, {
        recordOrigin: 2,
        accumulatedVehicleMiles: null,
        elapsedEngineHours: null,
        position: { kind: 'manual' },
        annotation: { username: DRIVER.username, comment: 'Break started earlier; forgot to switch', locationDescription: '3mi N IL Joliet' },
      });
    } else {
      event('10:20', 1, 1);
    }
    event('10:50', 1, 3);
    for (const hhmm of ['11:50', '12:50', '13:50', '14:50']) event(hhmm, 2, 1);
    if (positioningMalfunction) malfunctions.push({ sequenceId: next(), code: 2, diagnosticCode: 'L', at: at(date, '13:00'), ...totals('13:00'), cmvOrder });
    event('15:20', 1, 4);
    if (d === 4 || d === 5) {
      // Carrier edit proposal: pending on day 4 (inactive-change requested), rejected on day 5.
      event('15:10', 1, 4, {
        recordStatus: d === 4 ? 3 : 4,
        recordOrigin: 3,
        userOrder: USER.dispatcher,
        annotation: { username: DISPATCHER, comment: 'Unloading began 15:10 per the bill of lading', locationDescription: '' },
      });
    }
    if (d % 3 === 2) {
      event('15:25', 3, 2, { annotation: { username: DRIVER.username, comment: 'Yard move to dock 4', locationDescription: '' } });
      event('15:40', 3, 0);
    }
    event('16:00', 1, 1);
    enginePower.push({
      sequenceId: next(),
      code: 3,
      at: at(date, '16:05'),
      ...totals('16:05'),
      position: positionNow(),
      powerUnitNumber: truck.unit,
      vin: truck.vin,
      trailerNumbers: [],
      shippingDocumentNumber: '',
    });
    loginLogouts.push({ sequenceId: next(), code: 2, username: DRIVER.username, at: at(date, '16:10'), ...totals('16:10') });
    if (d % 3 === 1) {
      // Personal conveyance to dinner: reduced precision (one decimal) on every record of it.
      const reduced: EldPosition = { kind: 'fix', latitude: Math.round(lat * 10) / 10, longitude: Math.round(lon * 10) / 10, reduced: true };
      enginePower.push({
        sequenceId: next(),
        code: 2,
        at: at(date, '18:00'),
        ...totals('16:10'),
        position: reduced,
        powerUnitNumber: truck.unit,
        vin: truck.vin,
        trailerNumbers: [],
        shippingDocumentNumber: '',
      });
      event('18:01', 3, 1, {
        position: reduced,
        annotation: { username: DRIVER.username, comment: 'Personal conveyance to restaurant', locationDescription: '' },
      });
      event('18:40', 3, 0, { position: reduced });
      enginePower.push({
        sequenceId: next(),
        code: 4,
        at: at(date, '18:45'),
        ...totals('16:10'),
        position: reduced,
        powerUnitNumber: truck.unit,
        vin: truck.vin,
        trailerNumbers: [],
        shippingDocumentNumber: '',
      });
    }
    event('21:00', 1, 2);
    if (d === 1) {
      // Unidentified driving the driver later took as theirs: the unidentified record inactive-changed,
      // the driver's copy assumed from the unidentified profile (origin 4).
      unidentifiedEvents.push(unidentified(next(), 2, at(date, '23:00'), cmvOrder, positionNow()));
      event('23:00', 1, 3, {
        recordOrigin: 4,
        userOrder: USER.driver,
        annotation: { username: DRIVER.username, comment: 'Moved truck for the yard crew', locationDescription: '' },
      });
      event('23:15', 1, 2);
    }
    if (d === 3) {
      // A mechanic's test drive nobody claimed.
      unidentifiedEvents.push(unidentified(next(), 1, at(date, '22:10'), cmvOrder, positionNow()));
      unidentifiedEvents.push({ ...unidentified(next(), 1, at(date, '22:40'), cmvOrder, { kind: 'none' }), code: 4, distanceSinceLastValidCoordinates: 6 });
    }
    odometer += driven;
    engineHours = Math.round((engineHours + elapsed('16:05')) * 10) / 10;
  }

  return {
    header: {
      driver: DRIVER,
      coDriver: { lastName: 'Delacruz', firstName: 'Victor', username: 'vdelacruz' },
      cmv: { powerUnitNumber: '101', vin: '1FUJGLDR3CLBP8834', trailerNumbers: ['TR4471', 'TR4472'] },
      carrier: { usdotNumber: '1234567', name: 'Prairie Freight Lines LLC' },
      multidayBasis: 8,
      periodStartTime: '00:00:00',
      timeZoneOffsetHours: 5,
      shippingDocumentNumber: 'BOL-20260607',
      exempt: false,
      current: {
        at: at(lastDay, '23:30'),
        position: { kind: 'fix', latitude: lat, longitude: lon, reduced: false },
        totalVehicleMiles: odometer,
        totalEngineHours: engineHours,
      },
      eld: { registrationId: 'FL01', identifier: 'FLT001', authenticationValue: 'c2lnbmVkIGJ5IHRoZSBFTEQgcHJvdmlkZXIga2V5' },
      outputFileComment: '3BHG701015',
    },
    users: [
      { accountType: 'D', lastName: DRIVER.lastName, firstName: DRIVER.firstName },
      { accountType: 'D', lastName: 'Delacruz', firstName: 'Victor' },
      { accountType: 'S', lastName: 'Okafor', firstName: 'Ngozi' },
      { accountType: 'D', lastName: 'Unidentified', firstName: 'Driver' },
    ],
    cmvs: [
      { powerUnitNumber: '101', vin: '1FUJGLDR3CLBP8834' },
      { powerUnitNumber: '7', vin: '-3AKJHHDR5KSKA1234' },
    ],
    events,
    certifications,
    malfunctions,
    loginLogouts,
    enginePower,
    unidentifiedEvents,
  };
}

function unidentified(sequenceId: number, recordStatus: 1 | 2, when: LocalDateTime, cmvOrder: number, position: EldPosition): EldUnidentifiedEvent {
  return {
    sequenceId,
    recordStatus,
    recordOrigin: 1,
    type: 1,
    code: 3,
    at: when,
    accumulatedVehicleMiles: 0,
    elapsedEngineHours: 0.2,
    position,
    distanceSinceLastValidCoordinates: 0,
    cmvOrder,
    malfunction: false,
  };
}
