import { SimpleGrid } from '@mantine/core';
import type { HosLogDay } from '@fleet/api-contract';
import { Fact } from '../../../components/fact.tsx';
import { formatDistance, formatOdometer, type UnitSystem } from '../../../lib/units.ts';
import { driverName, rulesetName, shortDate, zoneAbbreviation } from './log-format.ts';
import classes from './log-page.module.css';

export interface LogHeaderProps {
  day: HosLogDay;
  units: UnitSystem;
}

const km = (m: number | null) => (m === null ? null : m / 1000);

/** The §395.8(d) header of a record of duty status: date, carrier, driver, vehicles, miles, documents. */
export function LogHeader({ day, units }: LogHeaderProps) {
  const h = day.header;
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" verticalSpacing="xs" className={classes.header} aria-label="Log header" component="section">
      <Fact label="Date">{shortDate(h.date)}</Fact>
      <Fact label="Driver">{driverName(h.driver)}</Fact>
      <Fact label="Co-driver">{h.coDriver ? driverName(h.coDriver) : 'None'}</Fact>
      <Fact label="Carrier">{h.carrier.name}</Fact>
      <Fact label="USDOT number">{h.carrier.dotNumber}</Fact>
      <Fact label="Main office">{h.carrier.mainOffice}</Fact>
      <Fact label="Home terminal">{h.homeTerminal}</Fact>
      <Fact label="Time zone">{`${h.timeZone} (${zoneAbbreviation(day.dayStart, h.timeZone)}), day starts ${h.periodStart}`}</Fact>
      <Fact label="Vehicles">{h.vehicles.map((v) => v.unitNumber).join(', ')}</Fact>
      <Fact label="Trailers">{h.trailers.map((v) => v.unitNumber).join(', ') || 'None'}</Fact>
      <Fact label="Shipping documents">{h.shippingDocuments.join(', ') || 'None'}</Fact>
      <Fact label="Ruleset">{rulesetName(h.ruleset)}</Fact>
      <Fact label="Distance today">{formatDistance(h.totalDistanceM, units)}</Fact>
      <Fact label="Odometer start / end">
        {h.startOdometerM === null && h.endOdometerM === null ? null : `${formatOdometer(km(h.startOdometerM), units)} / ${formatOdometer(km(h.endOdometerM), units)}`}
      </Fact>
    </SimpleGrid>
  );
}
