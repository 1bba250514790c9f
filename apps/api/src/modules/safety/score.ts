import {
  KM_PER_MILE,
  SAFETY_BEHAVIOUR_LABELS,
  SAFETY_BEHAVIOURS,
  SAFETY_MIN_SCORE_MILES,
  SAFETY_SCORE_BUCKETS,
  SAFETY_STATUSES_OUT_OF_SCORE,
  SPEEDING_BANDS,
  safetyBehaviourBasis,
  speedingBehaviour,
  type SafetyBehaviour,
  type SafetyBehaviourScore,
  type SafetyEventType,
  type SafetyFleetScore,
  type SafetySettings,
  type SafetyStatus,
  type SpeedingBand,
} from '@fleet/api-contract';

// The safety score (issue 47, decision 0195), pure: `100 - Σ weight × rate` per behaviour, where the
// rate is events per 1,000 miles, except speeding, whose bands count by their percent of driving time;
// floored at 0; null under 100 miles. Dismissed events and defensive driving leave it.

export interface ScoredEvent {
  id: string;
  type: SafetyEventType;
  status: SafetyStatus;
  band: SpeedingBand | null;
  bandSeconds: Partial<Record<SpeedingBand, number>> | null;
}

export interface ScoreResult {
  score: number | null;
  miles: number;
  events: number;
  speedingSeconds: number;
  speedingShare: number;
  pointsLost: number;
  behaviours: SafetyBehaviourScore[];
  /** The events behind each behaviour (ids). */
  eventIds: Map<SafetyBehaviour, string[]>;
}

const pushId = (m: Map<SafetyBehaviour, string[]>, b: SafetyBehaviour, id: string) => {
  const list = m.get(b);
  if (list) list.push(id);
  else m.set(b, [id]);
};
const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;
const OUT = new Set<SafetyStatus>(SAFETY_STATUSES_OUT_OF_SCORE);

/** Whether an event counts in the score (its status, and a behaviour with a weight). */
export const countsInScore = (e: Pick<ScoredEvent, 'status' | 'type' | 'band'>, weights: SafetySettings['weights']): boolean => {
  if (OUT.has(e.status)) return false;
  if (e.type === 'SPEEDING') return e.band !== null && weights[speedingBehaviour(e.band)] > 0;
  return weights[e.type as SafetyBehaviour] > 0;
};

/**
 * What a score needs of a subject's events: the counts per behaviour (speeding by its episode's band),
 * the seconds per speeding band, and how many events the review has not taken out of the score. The
 * fast path (decision 0199) builds it from an SQL aggregate, the plain one from the events.
 */
export interface ScoreTally {
  counts: Map<SafetyBehaviour, number>;
  seconds: Map<SafetyBehaviour, number>;
  speedingSeconds: number;
}

export const blankTally = (): ScoreTally => ({ counts: new Map(), seconds: new Map(), speedingSeconds: 0 });

/** Adds `n` events of a type (speeding: of a band) to a tally; `bandSeconds` their summed seconds per band. */
export function addToTally(
  t: ScoreTally,
  type: SafetyEventType,
  band: SpeedingBand | null,
  n: number,
  bandSeconds: Partial<Record<SpeedingBand, number>> | null,
): void {
  if (n === 0) return;
  if (type === 'SPEEDING') {
    // Device-reported speeding has no band (no limit known): it is listed, not weighed.
    if (!band) return;
    const b = speedingBehaviour(band);
    t.counts.set(b, (t.counts.get(b) ?? 0) + n);
    for (const k of SPEEDING_BANDS) {
      const s = bandSeconds?.[k] ?? 0;
      if (s > 0) t.seconds.set(speedingBehaviour(k), (t.seconds.get(speedingBehaviour(k)) ?? 0) + s);
      t.speedingSeconds += s;
    }
  } else {
    const b = type as SafetyBehaviour;
    t.counts.set(b, (t.counts.get(b) ?? 0) + n);
  }
}

/** Adds one tally into another (the fleet's is its subjects'). */
export function mergeTally(into: ScoreTally, t: ScoreTally): void {
  for (const [b, n] of t.counts) into.counts.set(b, (into.counts.get(b) ?? 0) + n);
  for (const [b, s] of t.seconds) into.seconds.set(b, (into.seconds.get(b) ?? 0) + s);
  into.speedingSeconds += t.speedingSeconds;
}

/** The score from a distance (km), a driving time and a tally of the events. */
export function scoreOfTally(distanceKm: number, drivingSeconds: number, t: ScoreTally, weights: SafetySettings['weights']): Omit<ScoreResult, 'eventIds'> {
  const miles = distanceKm / KM_PER_MILE;
  const behaviours: SafetyBehaviourScore[] = [];
  let points = 0;
  let counted = 0;
  for (const [b, n] of t.counts) if ((weights[b] ?? 0) > 0) counted += n;
  for (const b of SAFETY_BEHAVIOURS) {
    const n = t.counts.get(b) ?? 0;
    const s = t.seconds.get(b) ?? 0;
    const weight = weights[b];
    if (n === 0 && s === 0 && weight === 0) continue;
    const basis = safetyBehaviourBasis(b);
    const rate = basis === 'PER_1000_MI' ? (miles > 0 ? (n * 1000) / miles : 0) : drivingSeconds > 0 ? (s / drivingSeconds) * 100 : 0;
    const p = weight * rate;
    points += p;
    behaviours.push({
      behaviour: b,
      label: SAFETY_BEHAVIOUR_LABELS[b],
      basis,
      events: n,
      seconds: Math.round(s),
      rate: round(rate, 3),
      weight,
      points: round(p, 2),
    });
  }
  return {
    score: miles < SAFETY_MIN_SCORE_MILES ? null : round(Math.max(0, 100 - points), 1),
    miles: round(miles, 1),
    events: counted,
    speedingSeconds: Math.round(t.speedingSeconds),
    speedingShare: drivingSeconds > 0 ? round(t.speedingSeconds / drivingSeconds, 4) : 0,
    pointsLost: round(points, 2),
    behaviours,
  };
}

/** The score of one driver or vehicle over a period: its distance (km), driving time and events (the plain path). */
export function computeScore(distanceKm: number, drivingSeconds: number, events: readonly ScoredEvent[], weights: SafetySettings['weights']): ScoreResult {
  const tally = blankTally();
  const eventIds = new Map<SafetyBehaviour, string[]>();
  for (const e of events) {
    if (OUT.has(e.status)) continue;
    if (e.type === 'SPEEDING' && !e.band) continue;
    addToTally(tally, e.type, e.band, 1, e.bandSeconds);
    pushId(eventIds, e.type === 'SPEEDING' ? speedingBehaviour(e.band!) : (e.type as SafetyBehaviour), e.id);
  }
  return { ...scoreOfTally(distanceKm, drivingSeconds, tally, weights), eventIds };
}

/** The formula with the numbers filled in: "100 - (4 × 2.50 per 1,000 mi + 1 × 3.10 % of driving time) = 86.9". */
export function formulaOf(r: ScoreResult): {
  text: string;
  parts: Array<{ behaviour: SafetyBehaviour; label: string; text: string; points: number }>;
  floored: boolean;
} {
  const parts = r.behaviours
    .filter((b) => b.points > 0)
    .map((b) => ({
      behaviour: b.behaviour,
      label: b.label,
      text: `${b.weight} × ${b.rate.toFixed(2)} ${b.basis === 'PER_1000_MI' ? 'per 1,000 mi' : '% of driving time'}`,
      points: b.points,
    }));
  const sum = parts.length ? parts.map((p) => p.text).join(' + ') : '0';
  const result = r.score === null ? `not scored under ${SAFETY_MIN_SCORE_MILES} mi (${r.miles} mi driven)` : `${r.score}`;
  return { text: `100 - (${sum}) = ${result}`, parts, floored: r.score === 0 && r.pointsLost > 100 };
}

/** The fleet's distribution of scores over the buckets. */
export function distributionOf(scores: ReadonlyArray<number | null>): SafetyFleetScore['distribution'] {
  return SAFETY_SCORE_BUCKETS.map((b) => ({
    label: b.label,
    from: b.from,
    to: b.to,
    count: scores.filter((s) => s !== null && s >= b.from && (s < b.to || (b.to === 100 && s <= 100))).length,
  }));
}
