import type { TFunction } from 'i18next';
import type { Dvir, DvirKind } from '@fleet/api-contract';

// An inspection's words, apart from the report (dvir-report.tsx re-exports them): the home screen's
// card names inspections without loading the report's code (issue 67).

/** "Pre-trip" / "Post-trip" in the driver's language (the English is kept in what is sent: the log's note). */
export const kindWords = (t: TFunction, kind: DvirKind) => t(`inspection.kind.${kind}`);
/** "Pre-trip inspection" in the driver's language. */
export const kindNamed = (t: TFunction, kind: DvirKind) => t(`inspection.named.${kind}`);
/** A defect's state in the driver's language. */
export const defectStatusWords = (t: TFunction, status: Dvir['defects'][number]['status']) => t(`inspection.defectStatus.${status}`);

/** "Truck 101 + trailer T-7": the units a report covers. */
export const unitsOf = (d: Pick<Dvir, 'asset' | 'trailers'>) => [d.asset.unitNumber, ...d.trailers.map((t) => t.unitNumber)].join(' + ');
