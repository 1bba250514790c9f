import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconWifiOff } from '@tabler/icons-react';
import { useOnline } from '../../lib/online.ts';

/** Says so while the device has no network (issue 44): what is on screen is what was last synced. */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return null;
  return (
    <Alert color="orange" variant="light" radius={0} icon={<IconWifiOff size={18} aria-hidden />} role="status" data-testid="offline-banner" py={8}>
      {t('offline.banner')}
    </Alert>
  );
}
