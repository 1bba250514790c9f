import { Stack } from '@mantine/core';
import { useNotifications } from '../lib/notifications-store.ts';
import { NotificationCard } from './notification-card.tsx';
import classes from './notification-toasts.module.css';

/** The toast stack (error toasts and anything else notify() adds), newest on top. */
export function NotificationToasts() {
  const list = useNotifications();
  if (list.length === 0) return null;
  return (
    <Stack gap="xs" aria-live="polite" className={classes.stack}>
      {list.slice(0, 5).map((n) => (
        <NotificationCard key={n.id} n={n} />
      ))}
    </Stack>
  );
}
