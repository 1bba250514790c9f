import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconId } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatShortDateTime } from '../../lib/dates.ts';
import { useCan } from '../../lib/registry-api.ts';
import { useVehicleCardReads } from './assets-api.ts';

/** The drivers screen (the app's routes table names it; a feature links by path, never by import). */
const DRIVERS_PATH = '/settings/organization-settings/all-drivers';

/**
 * The driver card the vehicle's device read last (issue 73): whose card it is, or "Unknown card …"
 * with a link that opens the add-driver form with the card filled in; and how many reads were of
 * unknown cards. Nothing when the device never read a card.
 */
export function VehicleCardReads({ assetId }: { assetId: string }) {
  const { t } = useTranslation();
  const reads = useVehicleCardReads(assetId);
  const canAddDriver = useCan('DRIVER_CREATE');
  const data = reads.data;
  const last = data?.items[0];
  if (!data || !last) return null;
  const time = formatShortDateTime(last.readAt);
  return (
    <Stack gap={4} data-testid="vehicle-card-reads">
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconId size={16} color={last.driver ? undefined : 'var(--mantine-color-orange-6)'} style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
        {last.driver ? (
          <Text size="sm">{t('driverCard.known', { driver: last.driver.name, time })}</Text>
        ) : (
          <Text size="sm" fw={600} data-testid="unknown-card">
            {t('driverCard.unknown', { card: last.cardNumber, time })}
          </Text>
        )}
      </Group>
      {!last.driver && canAddDriver && (
        <Anchor component={Link} to={`${DRIVERS_PATH}?addDriver=true&cardNumber=${encodeURIComponent(last.cardNumber)}`} size="sm" pl={22}>
          {t('driverCard.addToDriver')}
        </Anchor>
      )}
      {data.unknownCount > 0 && (
        <Text size="xs" c="dimmed" pl={22}>
          {t('driverCard.unknownCount', { count: data.unknownCount })}
        </Text>
      )}
    </Stack>
  );
}
