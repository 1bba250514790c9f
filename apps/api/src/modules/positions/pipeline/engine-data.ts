import type { PositionRow } from './position-row.ts';

// A position's engine columns from what its device reported (decision 0152): decoders name what they
// decode (api-contract's ENGINE_ATTRIBUTES, in the position's attributes), and this picks the best
// odometer (the engine's over the GNSS one), the engine hours and the ignition for the row's columns.

type EngineColumns = Pick<PositionRow, 'odometer' | 'odometerSource' | 'engineHours' | 'ignition'>;

const finiteAtLeast0 = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/**
 * `reported` is what the protocol carries in its own fields (OsmAnd's odometer and ignition; a
 * phone's odometer is a GNSS one); named attributes win over it.
 */
export function engineColumns(
  attributes: Readonly<Record<string, unknown>>,
  reported: { odometer?: number | null; ignition?: boolean | null } = {},
): EngineColumns {
  const ecm = finiteAtLeast0(attributes.vehicleOdometer);
  const gps = finiteAtLeast0(attributes.gpsOdometer) ?? finiteAtLeast0(reported.odometer);
  const ignition = typeof attributes.ignition === 'boolean' ? attributes.ignition : (reported.ignition ?? null);
  return {
    odometer: ecm ?? gps,
    odometerSource: ecm !== null ? 'ECM' : gps !== null ? 'GPS' : null,
    engineHours: finiteAtLeast0(attributes.engineHours),
    ignition,
  };
}
