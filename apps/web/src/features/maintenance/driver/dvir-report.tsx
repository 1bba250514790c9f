import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Dvir } from '@fleet/api-contract';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatOdometer, type UnitSystem } from '../../../lib/units.ts';
import classes from './dvir-driver.module.css';

// One signed inspection report, read-only (it is immutable): what a driver, the next driver or an
// officer at the roadside reads. Times in the driver's home-terminal zone, named.

export const KIND_WORDS = { PRE_TRIP: 'Pre-trip', POST_TRIP: 'Post-trip' } as const;
export const DEFECT_STATUS_WORDS = { OPEN: 'Open', REPAIRED: 'Repaired', NOT_NEEDED: 'Repair not needed' } as const;
const DEFECT_STATUS_COLORS = { OPEN: 'red', REPAIRED: 'green', NOT_NEEDED: 'teal' } as const;

/** "Truck 101 + trailer T-7": the units a report covers. */
export const unitsOf = (d: Pick<Dvir, 'asset' | 'trailers'>) => [d.asset.unitNumber, ...d.trailers.map((t) => t.unitNumber)].join(' + ');

export interface DvirReportProps {
  dvir: Dvir;
  /** The zone times are shown in (the driver's home terminal). */
  timeZone: string;
  units: UnitSystem;
  /** Show the passed items by name (default false: their count). */
  listPassed?: boolean;
}

/** The report's facts, its defects with their certification, its signature and the next driver's review. */
export function DvirReport({ dvir, timeZone, units, listPassed = false }: DvirReportProps) {
  const passed = dvir.items.filter((i) => i.ok);
  const multi = dvir.trailers.length > 0;
  const unitName = (assetId: string) => (assetId === dvir.asset.id ? dvir.asset.unitNumber : (dvir.trailers.find((t) => t.id === assetId)?.unitNumber ?? ''));
  return (
    <Stack gap="sm" data-testid="dvir-report" data-dvir-id={dvir.id}>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" verticalSpacing="xs">
        <Fact label="Inspection" value={`${KIND_WORDS[dvir.kind]} · ${unitsOf(dvir)}`} />
        <Fact label="Signed" value={formatDateTime(dvir.inspectedAt, timeZone)} />
        <Fact label="Odometer" value={formatOdometer(dvir.odometer, units)} />
        <Fact label="Location" value={dvir.location ?? '—'} />
      </SimpleGrid>
      <Group gap="xs">
        {dvir.hasDefects ? (
          <Badge color="red" variant="light">
            {dvir.defects.length === 1 ? '1 defect' : `${dvir.defects.length} defects`}
          </Badge>
        ) : (
          <Badge color="green" variant="light">
            No defects
          </Badge>
        )}
        {dvir.unsafe && (
          <Badge color="red.9" variant="filled">
            Open safety defect
          </Badge>
        )}
        <Text size="sm" c="dimmed">
          {`${passed.length} of ${dvir.items.length} items passed`}
        </Text>
      </Group>
      {dvir.defects.map((d) => (
        <div key={d.id} className={classes.defect} data-status={d.status} data-testid="dvir-defect">
          <Group gap="xs" justify="space-between" wrap="wrap">
            <Text fw={600}>{multi ? `${d.label} (${d.asset.unitNumber})` : d.label}</Text>
            <Group gap={4}>
              {d.safety && (
                <Badge size="sm" color="red" variant="outline">
                  Affects safe operation
                </Badge>
              )}
              <Badge size="sm" color={DEFECT_STATUS_COLORS[d.status]} variant="light" data-testid="defect-status">
                {DEFECT_STATUS_WORDS[d.status]}
              </Badge>
            </Group>
          </Group>
          {d.note && <Text size="sm">{d.note}</Text>}
          {d.imageUrls.length > 0 && (
            <div className={classes.photos}>
              {d.imageUrls.map((url, n) => (
                <a key={d.imageIds[n] ?? url} href={url} target="_blank" rel="noreferrer" className={classes.photo}>
                  <img src={url} alt={`Photo ${n + 1} of ${d.label}`} loading="lazy" />
                </a>
              ))}
            </div>
          )}
          {d.certifiedAt && (
            <Text size="sm" c="dimmed" data-testid="defect-certification">
              {`${d.status === 'REPAIRED' ? 'Repair certified' : 'Certified repair not needed'} by ${d.certifiedBy?.name ?? 'a mechanic'}, ${formatDateTime(d.certifiedAt, timeZone)}${d.certification ? `: ${d.certification}` : ''}`}
            </Text>
          )}
        </div>
      ))}
      {listPassed && passed.length > 0 && (
        <Text size="sm">
          <Text span fw={600}>
            Passed:{' '}
          </Text>
          {passed.map((i) => (multi ? `${i.label} (${unitName(i.assetId)})` : i.label)).join(', ')}
        </Text>
      )}
      {dvir.remarks && <Fact label="Remarks" value={dvir.remarks} />}
      <div>
        <Text size="xs" c="dimmed">
          {`Signed by ${dvir.signature.name}${dvir.driver && dvir.driver.name !== dvir.signature.name ? ` (driver ${dvir.driver.name})` : ''}`}
        </Text>
        <SignatureShown signature={dvir.signature} />
      </div>
      {dvir.review && (
        <Text size="sm" data-testid="dvir-review">
          {`Repair certification reviewed by ${dvir.review.driver.name}, ${formatDateTime(dvir.review.reviewedAt, timeZone)}`}
        </Text>
      )}
    </Stack>
  );
}

/** A stored signature: the drawn image, or the typed name in script. */
export function SignatureShown({ signature }: { signature: Dvir['signature'] }) {
  return signature.imageUrl ? (
    <img className={classes.signatureImage} src={signature.imageUrl} alt={`Signature of ${signature.name}`} data-testid="signature-image" />
  ) : (
    <div className={classes.typedSignature} data-testid="signature-typed">
      {signature.name}
    </div>
  );
}

export function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className={classes.fact}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </div>
  );
}
