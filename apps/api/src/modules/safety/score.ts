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

/** The score of one driver or vehicle over a period: its distance (km), driving time and events. */
export function computeScore(distanceKm: number, drivingSeconds: number, events: readonly ScoredEvent[], weights: SafetySettings['weights']): ScoreResult {
  const miles = distanceKm / KM_PER_MILE;
  const counts = new Map<SafetyBehaviour, number>();
  const seconds = new Map<SafetyBehaviour, number>();
  const eventIds = new Map<SafetyBehaviour, string[]>();
  let speedingSeconds = 0;
  let counted = 0;
  for (const e of events) {
    if (OUT.has(e.status)) continue;
    if (e.type === 'SPEEDING') {
      // Device-reported speeding has no band (no limit known): it is listed, not weighed.
      if (!e.band) continue;
      const b = speedingBehaviour(e.band);
      counts.set(b, (counts.get(b) ?? 0) + 1);
      pushId(eventIds, b, e.id);
      for (const band of SPEEDING_BANDS) {
        const s = e.bandSeconds?.[band] ?? 0;
        if (s > 0) seconds.set(speedingBehaviour(band), (seconds.get(speedingBehaviour(band)) ?? 0) + s);
        speedingSeconds += s;
      }
    } else {
      const b = e.type as SafetyBehaviour;
      counts.set(b, (counts.get(b) ?? 0) + 1);
      pushId(eventIds, b, e.id);
    }
    if (countsInScore(e, weights)) counted++;
  }
  const behaviours: SafetyBehaviourScore[] = [];
  let points = 0;
  for (const b of SAFETY_BEHAVIOURS) {
    const n = counts.get(b) ?? 0;
    const s = seconds.get(b) ?? 0;
    const weight = weights[b];
    if (n === 0 && s === 0 && weight === 0) continue;
    const basis = safetyBehaviourBasis(b);
    const rate = basis === 'PER_1000_MI' ? (miles > 0 ? (n * 1000) / miles : 0) : drivingSeconds > 0 ? (s / drivingSeconds) * 100 : 0;
    const p = weight * rate;
    points += p;
    behaviours.push({ behaviour: b, label: SAFETY_BEHAVIOUR_LABELS[b], basis, events: n, seconds: Math.round(s), rate: round(rate, 3), weight, points: round(p, 2) });
  }
  return {
    score: miles < SAFETY_MIN_SCORE_MILES ? null : round(Math.max(0, 100 - points), 1),
    miles: round(miles, 1),
    events: counted,
    speedingSeconds: Math.round(speedingSeconds),
    speedingShare: drivingSeconds > 0 ? round(speedingSeconds / drivingSeconds, 4) : 0,
    pointsLost: round(points, 2),
    behaviours,
    eventIds,
  };
}

/** The formula with the numbers filled in: "100 - (4 × 2.50 per 1,000 mi + 1 × 3.10 % of driving time) = 86.9". */
export function formulaOf(r: ScoreResult): { text: string; parts: Array<{ behaviour: SafetyBehaviour; label: string; text: string; points: number }>; floored: boolean } {
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
