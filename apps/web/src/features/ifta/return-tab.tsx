import { Alert, Badge, Group, ScrollArea, Stack, Table, Text, Title, useComputedColorScheme } from '@mantine/core';
import type { IftaReport, IftaReturn } from '@fleet/api-contract';
import { int, rate, usd } from './ifta-format.ts';

/** The per-jurisdiction lines of a return and its totals (the live figures, or the filed ones). */
export function ReturnTable({ ret, label }: { ret: IftaReturn; label: string }) {
  const t = ret.totals;
  // Credits in green, dark enough on white and light enough on the dark body for small text (AA).
  const credit = useComputedColorScheme('light') === 'dark' ? 'teal.4' : 'teal.9';
  return (
    <ScrollArea type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `${label}, scrolls sideways` }}>
      <Table striped highlightOnHover withTableBorder fz="sm" miw={980} aria-label={label} stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Jurisdiction</Table.Th>
            <Table.Th scope="col" ta="right">
              Total miles
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Taxable miles
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Taxable gal
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Tax-paid gal
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Net taxable gal
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Rate
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Tax (credit)
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Surcharge
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Interest
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Total
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {ret.rows.map((r) => (
            <Table.Tr key={r.jurisdiction} data-jurisdiction={r.jurisdiction}>
              <Table.Th scope="row" fw={500}>
                <Group gap={6} wrap="nowrap">
                  <Text fw={700} size="sm" ff="monospace">
                    {r.jurisdiction}
                  </Text>
                  <Text size="xs" c="dimmed" visibleFrom="sm">
                    {r.name}
                  </Text>
                </Group>
              </Table.Th>
              <Table.Td ta="right">{int(r.totalMiles)}</Table.Td>
              <Table.Td ta="right">{int(r.taxableMiles)}</Table.Td>
              <Table.Td ta="right">{int(r.taxableGallons)}</Table.Td>
              <Table.Td ta="right">{int(r.taxPaidGallons)}</Table.Td>
              <Table.Td ta="right" c={r.netTaxableGallons < 0 ? credit : undefined}>
                {int(r.netTaxableGallons)}
              </Table.Td>
              <Table.Td ta="right">{rate(r.rate)}</Table.Td>
              <Table.Td ta="right" c={r.tax < 0 ? credit : undefined}>
                {usd(r.tax)}
              </Table.Td>
              <Table.Td ta="right" title={r.surchargeRate ? `${rate(r.surchargeRate)} a taxable gallon` : undefined}>
                {r.surcharge ? usd(r.surcharge) : '—'}
              </Table.Td>
              <Table.Td ta="right">{r.interest ? usd(r.interest) : '—'}</Table.Td>
              <Table.Td ta="right" fw={600} c={r.total < 0 ? credit : undefined}>
                {usd(r.total)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Th scope="row">Total</Table.Th>
            <Table.Td ta="right">{int(t.totalMiles - t.nonMemberMiles)}</Table.Td>
            <Table.Td ta="right">{int(t.taxableMiles)}</Table.Td>
            <Table.Td ta="right">{int(t.taxableGallons)}</Table.Td>
            <Table.Td ta="right">{int(t.taxPaidGallons)}</Table.Td>
            <Table.Td ta="right">{int(t.taxableGallons - t.taxPaidGallons)}</Table.Td>
            <Table.Td />
            <Table.Td ta="right">{usd(t.tax)}</Table.Td>
            <Table.Td ta="right">{usd(t.surcharge)}</Table.Td>
            <Table.Td ta="right">{usd(t.interest)}</Table.Td>
            <Table.Td ta="right">{usd(t.total - t.penalty)}</Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollArea>
  );
}

export function ReturnTab({ report }: { report: IftaReport }) {
  const t = report.totals;
  const jumps = report.unacceptedJumps;
  return (
    <Stack gap="md">
      {jumps.miles > 0 && (
        <Alert color="red" variant="light" title={`${int(jumps.miles)} mi of impossible jumps are not counted`} data-testid="ifta-jumps-not-counted">
          <Text size="sm">
            Jumps faster than 90 mph on {jumps.days} vehicle-day{jumps.days === 1 ? '' : 's'} (
            {jumps.jurisdictions.map((j) => `${j.jurisdiction} ${int(j.miles)}`).join(', ')}) are left out of every total until someone accepts them: mark them
            reviewed under To review once the miles are checked.
          </Text>
        </Alert>
      )}
      {report.amendment && (
        <Alert
          color="orange"
          variant="light"
          title={`Amendment pending: ${usd(report.amendment.difference)} against the return filed on ${report.filing?.filedAt ?? ''}`}
        >
          <Text size="sm" mb="xs">
            Miles, fuel or adjustments changed after the quarter was filed. The table shows today&apos;s figures; file again to submit the amendment.
          </Text>
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Changes since the filed return, scrolls sideways' }}>
            <Table fz="sm" withTableBorder aria-label="Changes since the filed return" miw={520}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Jurisdiction</Table.Th>
                  <Table.Th ta="right">Filed miles</Table.Th>
                  <Table.Th ta="right">Miles now</Table.Th>
                  <Table.Th ta="right">Filed total</Table.Th>
                  <Table.Th ta="right">Total now</Table.Th>
                  <Table.Th ta="right">Difference</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.amendment.rows.map((a) => (
                  <Table.Tr key={a.jurisdiction}>
                    <Table.Td ff="monospace">{a.jurisdiction}</Table.Td>
                    <Table.Td ta="right">{int(a.filedMiles)}</Table.Td>
                    <Table.Td ta="right">{int(a.currentMiles)}</Table.Td>
                    <Table.Td ta="right">{usd(a.filedTotal)}</Table.Td>
                    <Table.Td ta="right">{usd(a.currentTotal)}</Table.Td>
                    <Table.Td ta="right" fw={600}>
                      {usd(a.difference)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Alert>
      )}
      <ReturnTable ret={report} label={`IFTA return ${report.quarter}`} />
      <Group gap="lg" justify="flex-end" wrap="wrap">
        <Text size="sm">
          Non-IFTA miles (in the total only): <b>{int(t.nonMemberMiles)}</b>
        </Text>
        {t.penalty > 0 && (
          <Badge color="red" variant="light" size="lg">
            Late-filing penalty {usd(t.penalty)}
          </Badge>
        )}
        <Title order={3} fz="lg">
          {t.total < 0 ? 'Refund' : 'Total due'}: {usd(Math.abs(t.total))}
        </Title>
      </Group>
      {report.filed && !report.amendment && (
        <Text size="sm" c="dimmed">
          These are the figures filed on {report.filing?.filedAt} (version {report.filing?.version}); nothing has changed since.
        </Text>
      )}
    </Stack>
  );
}
