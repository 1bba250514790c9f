import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import { VEHICLE_SHARE_LINK_MAX_DAYS } from '@fleet/api-contract/tracking';
import type { AssetDetail } from '@fleet/api-contract';
import { ShareLinksModal } from '../../components/share-links-modal.tsx';
import { useVehicleShareLinkMutations, useVehicleShareLinks } from './assets-api.ts';

// "Share location" on a vehicle (issue 69): for a customer meeting a truck that carries no load, a
// link that shows the truck's position until it ends (at most 7 days ahead).

export function VehicleShareButton({ vehicle, canList }: { vehicle: AssetDetail; canList: boolean }) {
  const [opened, setOpened] = useState(false);
  const links = useVehicleShareLinks(vehicle.id, opened && canList);
  const { create, revoke } = useVehicleShareLinkMutations(vehicle.id);
  return (
    <>
      <Button size="xs" variant="default" leftSection={<IconShare size={14} />} onClick={() => setOpened(true)}>
        Share location
      </Button>
      <ShareLinksModal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`Share the location of ${vehicle.unitNumber}`}
        description={`The customer sees where truck ${vehicle.unitNumber} is until the link ends, without signing in. Never the driver or their hours.`}
        mailSubject={`Where truck ${vehicle.unitNumber} is`}
        mailBody={(url) => `Hello,\n\nYou can see where truck ${vehicle.unitNumber} is here:\n${url}`}
        links={canList ? links : { data: { items: [] }, isLoading: false, error: null, refetch: () => undefined }}
        canChange
        expiry={{ required: true, maxDays: VEHICLE_SHARE_LINK_MAX_DAYS }}
        onCreate={(body) => create.mutateAsync({ label: body.label ?? null, expiresAt: body.expiresAt ?? '' })}
        creating={create.isPending}
        onRevoke={(linkId) => revoke.mutateAsync(linkId)}
      />
    </>
  );
}
