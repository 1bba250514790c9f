import { SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { HosLogDay } from '@fleet/api-contract';
import { Fact } from '../../../components/fact.tsx';
import { formatDistance, formatOdometer, type UnitSystem } from '../../../lib/units.ts';
import { driverName, rulesetName, shortDate, zoneAbbreviation } from './log-format.ts';
import classes from './log-page.module.css';

export interface LogHeaderProps {
  day: HosLogDay;
  units: UnitSystem;
  /** Its words and formats in this language (the roadside view's records); else the viewer's. */
  lng?: string;
}

const km = (m: number | null) => (m === null ? null : m / 1000);

/** The §395.8(d) header of a record of duty status: date, carrier, driver, vehicles, miles, documents. */
export function LogHeader({ day, units, lng: asked }: LogHeaderProps) {
  const { i18n } = useTranslation();
  // Dates, zones and digits in the language too (issue 66); English keeps the office's formats.
  const lng = asked ?? i18n.language;
  const t = i18n.getFixedT(lng);
  const w = (k: string) => t(`roadside.header.${k}`);
  const h = day.header;
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" verticalSpacing="xs" className={classes.header} aria-label={w('label')} component="section">
      <Fact label={w('date')}>{shortDate(h.date, lng)}</Fact>
      <Fact label={w('driver')}>{driverName(h.driver)}</Fact>
      <Fact label={w('coDriver')}>{h.coDriver ? driverName(h.coDriver) : w('none')}</Fact>
      <Fact label={w('carrier')}>{h.carrier.name}</Fact>
      <Fact label={w('usdot')}>{h.carrier.dotNumber}</Fact>
      <Fact label={w('mainOffice')}>{h.carrier.mainOffice}</Fact>
      <Fact label={w('homeTerminal')}>{h.homeTerminal}</Fact>
      <Fact label={w('timeZone')}>
        {t('roadside.header.zoneValue', { zone: h.timeZone, abbr: zoneAbbreviation(day.dayStart, h.timeZone, lng), start: h.periodStart })}
      </Fact>
      <Fact label={w('vehicles')}>{h.vehicles.map((v) => v.unitNumber).join(', ')}</Fact>
      <Fact label={w('trailers')}>{h.trailers.map((v) => v.unitNumber).join(', ') || w('none')}</Fact>
      <Fact label={w('documents')}>{h.shippingDocuments.join(', ') || w('none')}</Fact>
      <Fact label={w('ruleset')}>{t(`rulesets.${h.ruleset}`, { defaultValue: rulesetName(h.ruleset) })}</Fact>
      <Fact label={w('distance')}>{formatDistance(h.totalDistanceM, units, lng)}</Fact>
      <Fact label={w('odometer')}>
        {h.startOdometerM === null && h.endOdometerM === null
          ? null
          : `${formatOdometer(km(h.startOdometerM), units, lng)} / ${formatOdometer(km(h.endOdometerM), units, lng)}`}
      </Fact>
    </SimpleGrid>
  );
}
