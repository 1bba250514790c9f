import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { SafetyEventBrief, SafetySeverity, SafetyStatus, UnitSystem } from '@fleet/api-contract';
import { KM_PER_MILE } from '@fleet/api-contract/units';
import tones from '../../components/badge-tones.module.css';
import classes from './safety.module.css';
import { intlLocale } from '../../i18n/i18n.ts';
import { formatSpeed, formatFuelVolume } from '../../lib/units.ts';

// The safety screens' words (issue 47): event types, statuses, severities, sources and bands from the
// catalogue (English, Spanish, French), and the numbers of an event in the organization's units.

/** Standard gravity: a harsh event's strength is also read in g (the vendors' thresholds are). */
const G = 9.80665;
/** 1 m/s² in mph per second (Motive's 8.66 mph/s is 3.87 m/s²). */
export const MPHPS_PER_MPS2 = 3600 / (KM_PER_MILE * 1000);

/** An acceleration in the organization's unit: mph/s (Imperial) or m/s² (metric). */
export const accelFromMps2 = (v: number, units: UnitSystem) => (units === 'IMPERIAL' ? v * MPHPS_PER_MPS2 : v);
export const accelToMps2 = (v: number, units: UnitSystem) => (units === 'IMPERIAL' ? v / MPHPS_PER_MPS2 : v);
export const accelUnit = (units: UnitSystem) => (units === 'IMPERIAL' ? 'mph/s' : 'm/s²');

const num = (v: number, digits: number, lng?: string) => v.toLocaleString(intlLocale(lng), { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** "0.41 g · 8.9 mph/s" or "0.41 g · 4.0 m/s²". */
export function formatStrength(mps2: number | null | undefined, units: UnitSystem, lng?: string): string {
  if (mps2 === null || mps2 === undefined) return '—';
  return `${num(mps2 / G, 2, lng)} g · ${num(accelFromMps2(mps2, units), 1, lng)} ${accelUnit(units)}`;
}

/** "1 h 05 min", "4 min 20 s", "45 s". */
export function formatSeconds(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = Math.round(s % 60);
  if (h) return `${h.toLocaleString('en-US')} h ${String(m).padStart(2, '0')} min`;
  if (m) return sec ? `${m} min ${sec} s` : `${m} min`;
  return `${sec} s`;
}

/** A score as shown: whole points ("84"), or a dash under the minimum distance. */
export const formatScore = (score: number | null | undefined) => (score === null || score === undefined ? '—' : String(Math.round(score)));

/** The score's colour: green from 90, yellow from 80, orange from 70, red under (badges and charts). */
export const scoreColor = (score: number | null | undefined) =>
  score === null || score === undefined ? 'gray' : score >= 90 ? 'teal' : score >= 80 ? 'yellow' : score >= 70 ? 'orange' : 'red';

/** The class colouring a score's figure by the same bands, readable on both themes. */
export const scoreClass = (score: number | null | undefined) =>
  score === null || score === undefined
    ? classes.scoreNone
    : score >= 90
      ? classes.scoreTop
      : score >= 80
        ? classes.scoreGood
        : score >= 70
          ? classes.scoreFair
          : classes.scoreLow;

const SEVERITY_TONE: Record<SafetySeverity, string | undefined> = { LOW: tones.muted, MEDIUM: tones.warn, HIGH: tones.danger, CRITICAL: tones.severe };
const STATUS_TONE: Record<SafetyStatus, string | undefined> = {
  NEW: tones.warn,
  NEEDS_COACHING: tones.danger,
  COACHED: tones.ok,
  RECOGNISED: tones.ok,
  DISMISSED: tones.muted,
  DEFENSIVE: tones.muted,
};

export function SeverityBadge({ severity }: { severity: SafetySeverity }) {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" radius="sm" className={SEVERITY_TONE[severity]} data-severity={severity}>
      {t(`safety.severity.${severity}`)}
    </Badge>
  );
}

export function StatusBadge({ status }: { status: SafetyStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" radius="sm" className={STATUS_TONE[status]} data-status={status}>
      {t(`safety.status.${status}`)}
    </Badge>
  );
}

/**
 * What happened, in one line with its numbers: "71 mph in a 55 mph zone" (speeding: on the stretch
 * that set the band; the top speed is the event's own fact), "0.47 g · 10.3 mph/s",
 * "Idling 23 min · 0.8 gal". Speeds and volumes in the organization's units.
 */
export function eventFigures(
  e: Pick<SafetyEventBrief, 'type' | 'maxSpeedKph' | 'limitKph' | 'strengthMps2' | 'durationS'> & {
    heldSpeedKph?: number | null;
    fuelBurnedL?: number | null;
    speedBeforeKph?: number | null;
    speedAfterKph?: number | null;
  },
  units: UnitSystem,
  t: TFunction,
  lng?: string,
): string {
  switch (e.type) {
    case 'SPEEDING':
    case 'MAX_SPEED': {
      // Speeding names the stretch that set its band: the speed held there over its limit (issue 66).
      const speed = e.type === 'SPEEDING' ? (e.heldSpeedKph ?? e.maxSpeedKph) : e.maxSpeedKph;
      if (speed === null || e.limitKph === null) return formatSeconds(e.durationS);
      return t(e.type === 'SPEEDING' ? 'safety.figures.speeding' : 'safety.figures.maxSpeed', {
        speed: formatSpeed(speed, units),
        limit: formatSpeed(e.limitKph, units),
        duration: formatSeconds(e.durationS),
      });
    }
    case 'IDLING':
      return e.fuelBurnedL ? `${formatSeconds(e.durationS)} · ${formatFuelVolume(e.fuelBurnedL, units)}` : formatSeconds(e.durationS);
    case 'HARSH_ACCELERATION':
    case 'HARSH_BRAKING':
    case 'HARSH_CORNERING': {
      const strength = e.strengthMps2 !== null ? formatStrength(e.strengthMps2, units, lng) : '';
      const speeds =
        e.speedBeforeKph !== null && e.speedBeforeKph !== undefined && e.speedAfterKph !== null && e.speedAfterKph !== undefined
          ? `${formatSpeed(e.speedBeforeKph, units)} → ${formatSpeed(e.speedAfterKph, units)}`
          : '';
      return [strength, speeds].filter(Boolean).join(' · ') || '—';
    }
    default:
      return e.maxSpeedKph !== null ? formatSpeed(e.maxSpeedKph, units) : '—';
  }
}
