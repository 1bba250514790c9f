import { Stack } from '@mantine/core';
import { useNotifications } from '../lib/notifications-store.ts';
import { NotificationCard } from './notification-card.tsx';

/** The toast stack (error toasts and anything else notify() adds), newest on top. */
export function NotificationToasts() {
  const list = useNotifications();
  if (list.length === 0) return null;
  return (
    <Stack
      gap="xs"
      aria-live="polite"
      style={{ position: 'fixed', top: 72, right: 16, left: 'auto', zIndex: 1050, width: 'min(380px, calc(100vw - 32px))' }}
    >
      {list.slice(0, 5).map((n) => (
        <NotificationCard key={n.id} n={n} />
      ))}
    </Stack>
  );
}
