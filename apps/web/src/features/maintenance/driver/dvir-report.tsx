import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Dvir } from '@fleet/api-contract';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatOdometer, type UnitSystem } from '../../../lib/units.ts';
import { itemWords } from './dvir-items.ts';
import classes from './dvir-driver.module.css';

// One signed inspection report, read-only (it is immutable): what a driver, the next driver or an
// officer at the roadside reads. Times in the driver's home-terminal zone, named.

export { defectStatusWords, kindNamed, kindWords, unitsOf } from './dvir-words.ts';
import { defectStatusWords, kindWords, unitsOf } from './dvir-words.ts';

const DEFECT_STATUS_COLORS = { OPEN: 'red', REPAIRED: 'green', NOT_NEEDED: 'teal' } as const;

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
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const passed = dvir.items.filter((i) => i.ok);
  const multi = dvir.trailers.length > 0;
  const unitName = (assetId: string) => (assetId === dvir.asset.id ? dvir.asset.unitNumber : (dvir.trailers.find((t) => t.id === assetId)?.unitNumber ?? ''));
  return (
    <Stack gap="sm" data-testid="dvir-report" data-dvir-id={dvir.id}>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" verticalSpacing="xs">
        <Fact label={t('inspection.fact.inspection')} value={`${kindWords(t, dvir.kind)} · ${unitsOf(dvir)}`} />
        <Fact label={t('inspection.fact.signed')} value={formatDateTime(dvir.inspectedAt, timeZone, lng)} />
        <Fact label={t('inspection.fact.odometer')} value={formatOdometer(dvir.odometer, units, lng)} />
        <Fact label={t('inspection.fact.location')} value={dvir.location ?? '—'} />
      </SimpleGrid>
      <Group gap="xs">
        {dvir.hasDefects ? (
          <Badge color="red" variant="light">
            {t('inspection.defects', { count: dvir.defects.length })}
          </Badge>
        ) : (
          <Badge color="green" variant="light">
            {t('inspection.noDefects')}
          </Badge>
        )}
        {dvir.unsafe && (
          <Badge color="red.9" variant="filled">
            {t('inspection.openSafety')}
          </Badge>
        )}
        <Text size="sm" c="dimmed">
          {t('inspection.itemsPassed', { passed: passed.length, total: dvir.items.length })}
        </Text>
      </Group>
      {dvir.defects.map((d) => (
        <div key={d.id} className={classes.defect} data-status={d.status} data-testid="dvir-defect">
          <Group gap="xs" justify="space-between" wrap="wrap">
            <Text fw={600}>{multi ? `${itemWords(t, d)} (${d.asset.unitNumber})` : itemWords(t, d)}</Text>
            <Group gap={4}>
              {d.safety && (
                <Badge size="sm" color="red" variant="outline">
                  {t('inspection.affects')}
                </Badge>
              )}
              <Badge size="sm" color={DEFECT_STATUS_COLORS[d.status]} variant="light" data-testid="defect-status">
                {defectStatusWords(t, d.status)}
              </Badge>
            </Group>
          </Group>
          {d.note && <Text size="sm">{d.note}</Text>}
          {d.imageUrls.length > 0 && (
            <div className={classes.photos}>
              {d.imageUrls.map((url, n) => (
                <a key={d.imageIds[n] ?? url} href={url} target="_blank" rel="noreferrer" className={classes.photo}>
                  <img src={url} alt={t('inspection.photoOf', { n: n + 1, item: itemWords(t, d) })} loading="lazy" />
                </a>
              ))}
            </div>
          )}
          {d.certifiedAt && (
            <Text size="sm" c="dimmed" data-testid="defect-certification">
              {`${t(d.status === 'REPAIRED' ? 'inspection.certifiedRepair' : 'inspection.certifiedNotNeeded', { name: d.certifiedBy?.name ?? t('inspection.aMechanic'), time: formatDateTime(d.certifiedAt, timeZone, lng) })}${d.certification ? `: ${d.certification}` : ''}`}
            </Text>
          )}
        </div>
      ))}
      {listPassed && passed.length > 0 && (
        <Text size="sm">
          <Text span fw={600}>
            {t('inspection.passed')}{' '}
          </Text>
          {passed.map((i) => (multi ? `${itemWords(t, i)} (${unitName(i.assetId)})` : itemWords(t, i))).join(', ')}
        </Text>
      )}
      {dvir.remarks && <Fact label={t('inspection.fact.remarks')} value={dvir.remarks} />}
      <div>
        <Text size="xs" c="dimmed">
          {dvir.driver && dvir.driver.name !== dvir.signature.name
            ? t('inspection.signedByDriver', { name: dvir.signature.name, driver: dvir.driver.name })
            : t('inspection.signedBy', { name: dvir.signature.name })}
        </Text>
        <SignatureShown signature={dvir.signature} />
      </div>
      {dvir.review && (
        <Text size="sm" data-testid="dvir-review">
          {t('inspection.reviewed', { name: dvir.review.driver.name, time: formatDateTime(dvir.review.reviewedAt, timeZone, lng) })}
        </Text>
      )}
    </Stack>
  );
}

/** A stored signature: the drawn image, or the typed name in script. */
export function SignatureShown({ signature }: { signature: Dvir['signature'] }) {
  const { t } = useTranslation();
  return signature.imageUrl ? (
    <img
      className={classes.signatureImage}
      src={signature.imageUrl}
      alt={t('inspection.signatureOf', { name: signature.name })}
      data-testid="signature-image"
    />
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
