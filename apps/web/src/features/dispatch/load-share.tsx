import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import { SHARE_LINK_DEFAULT_HOURS_AFTER_LAST_STOP } from '@fleet/api-contract/tracking';
import type { Load } from '@fleet/api-contract';
import { ShareLinksModal } from '../../components/share-links-modal.tsx';
import { formatShortDateTime } from '../../lib/dates.ts';
import { createLoadShareLink, revokeLoadShareLink, useLoadMutation, useLoadShareLinks } from './dispatch-api.ts';

// "Share tracking" on a load's page (issue 69): a link the customer opens without signing in.

export function LoadShareButton({ load, canList }: { load: Load; canList: boolean }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const links = useLoadShareLinks(load.id, opened && canList);
  const create = useLoadMutation(createLoadShareLink);
  const revoke = useLoadMutation(revokeLoadShareLink);
  const last = load.stops.at(-1);
  const defaultEnd = last ? new Date(Date.parse(last.windowEnd) + SHARE_LINK_DEFAULT_HOURS_AFTER_LAST_STOP * 3_600_000).toISOString() : null;
  const reference = load.poNumber ?? load.bolNumber;
  return (
    <>
      <Button variant="default" leftSection={<IconShare size={16} />} onClick={() => setOpened(true)}>
        Share tracking
      </Button>
      <ShareLinksModal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`Share tracking of load ${load.number}`}
        description="The customer sees the stops, their ETAs, the truck’s position while the load runs and its status history, without signing in. Never the driver, their hours or the rate."
        mailSubject={`Tracking for load ${load.number}${reference ? ` (${reference})` : ''}`}
        mailBody={(url) =>
          `Hello,\n\nYou can follow load ${load.number}${reference ? ` (your reference ${reference})` : ''} here:\n${url}\n\nThe page shows the stops, the ETA and where the truck is.`
        }
        links={canList ? links : { data: { items: [] }, isLoading: false, error: null, refetch: () => undefined }}
        canChange
        expiry={{
          required: false,
          defaultText: `Leave empty for ${SHARE_LINK_DEFAULT_HOURS_AFTER_LAST_STOP} h after the last stop${defaultEnd ? ` (${formatShortDateTime(defaultEnd)})` : ''}`,
        }}
        temperature={{
          label: t('temperatures.tracking.show'),
          description: t('temperatures.tracking.showHint'),
          badge: t('temperatures.tracking.badge'),
        }}
        onCreate={(body) => create.mutateAsync({ id: load.id, body: { ...body, label: body.label ?? null, showTemperature: body.showTemperature ?? false } })}
        creating={create.isPending}
        onRevoke={(linkId) => revoke.mutateAsync({ id: load.id, linkId })}
      />
    </>
  );
}
