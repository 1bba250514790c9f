export * from './types.ts';
export { planTrip, BREAK_MS, REST_MS, HORIZON_MS } from './plan-trip.ts';
export { planDutyPeriods, statusIn, type NumericPeriod } from './duty-log.ts';
export { freeAfter, busyPoints, type BusyLoad, type FreeAt } from './free-after.ts';
export { formatPlanReason, formatInstant, formatDuration, jurisdictionName, jurisdictionCodeAt, clockWords } from './reason.ts';
export { builtInRouting, BUILT_IN_SPEED_MPS, type BuiltInRouting, type BuiltInRoutingOptions } from './routing-builtin.ts';
export { osrmRouting, type OsrmRoutingOptions } from './routing-osrm.ts';
export { RoutingError } from './routing-error.ts';
export {
  rankCandidates,
  rankCandidatesRouted,
  compareCandidates,
  estimatedLeg,
  DETOUR_FACTOR,
  type LoadToPlan,
  type CandidateDriver,
  type RankedCandidate,
  type RankOptions,
  type RoutedRankOptions,
} from './rank-candidates.ts';
