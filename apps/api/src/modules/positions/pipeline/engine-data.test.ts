import { describe, expect, it } from 'vitest';
import { engineColumns } from './engine-data.ts';

describe('engine columns', () => {
  it("takes the engine's odometer over the GNSS one, and says which", () => {
    expect(engineColumns({ vehicleOdometer: 1_234_000, gpsOdometer: 1_200_000, engineHours: 5021.5, ignition: true })).toEqual({
      odometer: 1_234_000,
      odometerSource: 'ECM',
      engineHours: 5021.5,
      ignition: true,
    });
    expect(engineColumns({ gpsOdometer: 1_200_000 })).toEqual({ odometer: 1_200_000, odometerSource: 'GPS', engineHours: null, ignition: null });
  });

  it("falls back on the protocol's own fields, and ignores values that are not readings", () => {
    expect(engineColumns({}, { odometer: 500, ignition: false })).toEqual({ odometer: 500, odometerSource: 'GPS', engineHours: null, ignition: false });
    expect(engineColumns({ vehicleOdometer: -1, engineHours: Number.NaN, ignition: 'yes' })).toEqual({
      odometer: null,
      odometerSource: null,
      engineHours: null,
      ignition: null,
    });
  });
});
