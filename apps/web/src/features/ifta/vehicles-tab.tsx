import { Badge, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import type { IftaReport } from '@fleet/api-contract';
import { DataState } from '../../components/data-state.tsx';
import { int, jurisdictionColor, mpg } from './ifta-format.ts';
import { ExportMenu } from './export-menu.tsx';

/** Miles and fuel per vehicle, with each one's odometer check and its distance records. */
export function VehiclesTab({ report }: { report: IftaReport }) {
  return (
    <DataState
      isEmpty={report.vehicles.length === 0}
      emptyTitle="No vehicle drove or fuelled this quarter"
      emptyDescription="IFTA-qualified vehicles of this fuel type appear here once their positions or purchases are in."
    >
      <ScrollArea type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Miles and fuel per vehicle, scrolls sideways' }}>
        <Table striped highlightOnHover withTableBorder fz="sm" miw={760} aria-label="Miles and fuel per vehicle">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Unit</Table.Th>
              <Table.Th scope="col" ta="right">
                Miles
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Gallons
              </Table.Th>
              <Table.Th scope="col" ta="right">
                MPG
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Odometer miles
              </Table.Th>
              <Table.Th scope="col">Miles by jurisdiction</Table.Th>
              <Table.Th scope="col">Distance records</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.vehicles.map((v) => {
              const off = v.odometerMiles !== null && v.recordedMiles > 0 && Math.abs(v.odometerMiles - v.recordedMiles) > 0.1 * v.recordedMiles;
              return (
                <Table.Tr key={v.assetId}>
                  <Table.Th scope="row">{v.unitNumber}</Table.Th>
                  <Table.Td ta="right">{int(v.totalMiles)}</Table.Td>
                  <Table.Td ta="right">{int(v.gallons)}</Table.Td>
                  <Table.Td ta="right">{mpg(v.mpg)}</Table.Td>
                  <Table.Td ta="right" c={off ? 'red.8' : undefined} title={off ? `Recorded on the same days: ${int(v.recordedMiles)} mi` : undefined}>
                    {int(v.odometerMiles)}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {v.jurisdictions.slice(0, 8).map((j) => (
                        <Badge key={j.jurisdiction} variant="dot" radius="sm" color={jurisdictionColor(j.jurisdiction)} tt="none">
                          {j.jurisdiction} {int(j.miles)}
                        </Badge>
                      ))}
                      {v.jurisdictions.length > 8 && (
                        <Text size="xs" c="dimmed">
                          +{v.jurisdictions.length - 8}
                        </Text>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <ExportMenu
                      what="distance-records"
                      query={{ quarter: report.quarter, assetId: v.assetId }}
                      name={`ifta-${report.quarter}-${v.unitNumber}`}
                      compact
                      label={`Distance records of ${v.unitNumber}`}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Stack gap={0} mt="xs">
        <Text size="xs" c="dimmed">
          Odometer miles: the odometer&apos;s travel over the quarter&apos;s days that had readings; more than 10 % from the recorded miles is listed under To
          review.
        </Text>
      </Stack>
    </DataState>
  );
}
