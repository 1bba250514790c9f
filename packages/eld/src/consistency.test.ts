import { describe, expect, it } from 'vitest';
import { accumulatedValueProblems } from './consistency.ts';
import type { EldEnginePower, EldEvent, EldFile } from './model.ts';
import { parseEldFile } from './parser.ts';
import { driverWeek } from './testing/driver-week.ts';
import { writeEldFile } from './writer.ts';

// Issue 46: a CMV's totals never go down, and the miles and hours since power-up neither go down
// nor run past what the engine records allow.

const base = driverWeek({ days: 1 });
const fix = { kind: 'fix', latitude: 41.88, longitude: -87.63, reduced: false } as const;

function engine(sequenceId: number, code: 1 | 3, at: string, miles: number, hours: number): EldEnginePower {
  return {
    sequenceId,
    code,
    at: `2026-06-08T${at}:00`,
    totalVehicleMiles: miles,
    totalEngineHours: hours,
    position: fix,
    powerUnitNumber: '101',
    vin: '',
    trailerNumbers: [],
    shippingDocumentNumber: '',
  };
}

function event(sequenceId: number, at: string, miles: number | null, hours: number | null, over: Partial<EldEvent> = {}): EldEvent {
  return {
    sequenceId,
    recordStatus: 1,
    recordOrigin: 1,
    type: 1,
    code: 3,
    at: `2026-06-08T${at}:00`,
    accumulatedVehicleMiles: miles,
    elapsedEngineHours: hours,
    position: fix,
    distanceSinceLastValidCoordinates: 0,
    cmvOrder: 1,
    userOrder: null,
    malfunction: false,
    dataDiagnostic: false,
    annotation: null,
    ...over,
  };
}

/** A day on truck 101: power-up 05:45, driving, shut-down 16:05, power-up again 17:00. */
function day(over: Partial<EldFile> = {}): EldFile {
  return {
    ...base,
    header: {
      ...base.header,
      cmv: { powerUnitNumber: '101', vin: '', trailerNumbers: [] },
      current: { ...base.header.current, totalVehicleMiles: 664_860, totalEngineHours: 5010.4 },
    },
    users: base.users,
    cmvs: [{ powerUnitNumber: '101', vin: '' }],
    events: [
      event(1, '06:30', 0, 0.7),
      event(2, '10:00', 190, 4.2, { code: 4 }),
      event(3, '10:50', 190, 5.0),
      event(4, '15:20', 325, 9.5, { code: 4 }),
      event(5, '17:10', 0, 0.1, { code: 4 }),
    ],
    certifications: [],
    malfunctions: [],
    loginLogouts: [],
    enginePower: [engine(10, 1, '05:45', 664_534, 5000.1), engine(11, 3, '16:05', 664_860, 5010.3), engine(12, 1, '17:00', 664_860, 5010.3)],
    unidentifiedEvents: [],
    ...over,
  };
}

describe('accumulated values of an ELD output file (issue 46)', () => {
  it('finds nothing wrong in a consistent day, and the same after writing and parsing the file', () => {
    expect(accumulatedValueProblems(day())).toEqual([]);
    expect(accumulatedValueProblems(parseEldFile(writeEldFile(day()).text))).toEqual([]);
  });

  it("names a CMV's total miles or engine hours going down between its engine records", () => {
    // The power-up after the stop read the engine's odometer, below the GPS one the shut-down carried.
    const problems = accumulatedValueProblems(
      day({ enginePower: [engine(10, 1, '05:45', 664_534, 5000.1), engine(11, 3, '16:05', 664_861, 5010.3), engine(12, 1, '17:00', 664_860, 5010.2)] }),
    );
    expect(problems).toEqual([
      'CMV 101: total miles go down from 664861 (engine record B at 2026-06-08T16:05:00) to 664860 (engine record C at 2026-06-08T17:00:00)',
      'CMV 101: total engine hours go down from 5010.3 (engine record B at 2026-06-08T16:05:00) to 5010.2 (engine record C at 2026-06-08T17:00:00)',
      // And the header, read from the engine now, is below the shut-down's GPS total.
      'header: current total miles 664860 are below the 664861 CMV 101 recorded',
    ]);
  });

  it('names miles since power-up that go down, or run past what the engine records allow, and header totals below the records', () => {
    const down = accumulatedValueProblems(day({ events: [event(1, '06:30', 0, 0.7), event(2, '10:00', 190, 4.2), event(3, '10:50', 189, 5.0)] }));
    expect(down).toEqual([
      'CMV 101 after the power-up at 2026-06-08T05:45:00: accumulated miles go down from 190 (event 2 at 2026-06-08T10:00:00) to 189 (event 3 at 2026-06-08T10:50:00)',
    ]);
    const past = accumulatedValueProblems(day({ events: [event(4, '15:20', 400, 9.5)] }));
    expect(past).toEqual([
      'CMV 101 after the power-up at 2026-06-08T05:45:00: event 4 at 2026-06-08T15:20:00 counts 400 miles, more than the 326 the engine records allow',
    ]);
    const header = accumulatedValueProblems(day({ header: { ...day().header, current: { ...day().header.current, totalVehicleMiles: 664_859 } } }));
    expect(header).toEqual(['header: current total miles 664859 are below the 664860 CMV 101 recorded']);
    // Inactive versions keep what they said when recorded: not compared.
    expect(accumulatedValueProblems(day({ events: [event(2, '10:00', 190, 4.2), event(3, '10:50', 100, 5.0, { recordStatus: 2 })] }))).toEqual([]);
  });
});
