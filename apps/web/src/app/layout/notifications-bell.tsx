import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { lazyPart, useOnceTrue } from '../../components/on-first-use.ts';
import { useNotificationStream, useUnreadCount } from '../../features/notifications/notifications-api.ts';

// The bell and its unread count are on every signed-in screen; the panel (a popover with floating-ui,
// the lists) loads on the bell's first tap (issue 67).
const NotificationsPopover = lazyPart(() => import('./notifications-popover.tsx'));

/** Spec section 2: the header's bell, its unread count kept live by the user's notification stream, and the panel it opens. */
export function NotificationsBell() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  // The focus that opened the panel moves to the bell the popover wraps (a new element).
  const [refocus, setRefocus] = useState(false);
  useNotificationStream();
  const unread = useUnreadCount().data?.unread ?? 0;
  const used = useOnceTrue(opened);
  const bell = (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={unread ? t('shell.notificationsUnread', { count: unread }) : t('shell.notifications')}
      onClick={(e) => {
        if (!used) setRefocus(document.activeElement === e.currentTarget);
        setOpened((o) => !o);
      }}
      ref={(node: HTMLButtonElement | null) => {
        if (refocus && node && document.activeElement !== node && (document.activeElement === document.body || !document.activeElement)) node.focus();
      }}
    >
      <Indicator
        label={unread > 99 ? '99+' : unread}
        size={16}
        color="red.8"
        disabled={unread === 0}
        offset={2}
        data-testid="bell-badge"
        data-count={unread}
        aria-hidden
      >
        <IconBell size={20} />
      </Indicator>
    </ActionIcon>
  );
  if (!used) return bell;
  return (
    <Suspense fallback={bell}>
      <NotificationsPopover opened={opened} setOpened={setOpened} unread={unread} bell={bell} />
    </Suspense>
  );
}
