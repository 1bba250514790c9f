import { ActionIcon, Anchor, Collapse, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconBell, IconCheck, IconChevronDown, IconCircleFilled, IconX } from '@tabler/icons-react';
import type { KeyboardEvent, ReactNode } from 'react';
import { removeNotification, toggleNotification, type AppNotification } from '../lib/notifications-store.ts';
import { Avatar } from './avatar.tsx';

/** The colour of each notification type (spec section 4): the card's edge and icon, in the browser's and the server's notifications alike. */
export const NOTIFICATION_COLORS = { viewed: 'gray', 'not-viewed': 'fleet', alert: 'red', success: 'teal' } as const;

const TYPE_STYLE = {
  viewed: { color: NOTIFICATION_COLORS.viewed, Icon: IconBell },
  'not-viewed': { color: NOTIFICATION_COLORS['not-viewed'], Icon: IconCircleFilled },
  alert: { color: NOTIFICATION_COLORS.alert, Icon: IconAlertTriangle },
  success: { color: NOTIFICATION_COLORS.success, Icon: IconCheck },
} as const;

/** A notification's text: a click, Enter or Space opens or closes its expanded part when it has one. */
export function ExpandableBody({
  expandable,
  expanded,
  onToggle,
  children,
}: {
  expandable: boolean;
  expanded: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const onKeyDown = (e: KeyboardEvent) => {
    if (expandable && (e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget) {
      e.preventDefault();
      onToggle();
    }
  };
  return (
    <Stack
      gap={2}
      style={{ flex: 1, minWidth: 0, cursor: expandable ? 'pointer' : undefined }}
      onClick={onToggle}
      onKeyDown={onKeyDown}
      tabIndex={expandable ? 0 : undefined}
      role={expandable ? 'button' : undefined}
      aria-expanded={expandable ? expanded : undefined}
    >
      {children}
    </Stack>
  );
}

/** The chevron beside an expandable notification's title, turned up while it is open. */
export function ExpandChevron({ expanded }: { expanded: boolean }) {
  return <IconChevronDown size={16} aria-hidden style={{ flex: 'none', transform: expanded ? 'rotate(180deg)' : undefined, transition: 'transform 150ms' }} />;
}

/**
 * One notification (spec section 4): expandable content toggles by click or Enter; a closable one
 * has a close button that removes it.
 */
export function NotificationCard({ n }: { n: AppNotification }) {
  const style = TYPE_STYLE[n.type];
  const expandable = !!n.expandedContent;
  const toggle = () => {
    if (expandable) toggleNotification(n.id);
  };
  return (
    <Paper
      withBorder
      shadow="md"
      p="sm"
      radius="md"
      data-type={n.type}
      data-testid="notification"
      role={n.type === 'alert' ? 'alert' : 'status'}
      style={{ borderLeft: `4px solid var(--mantine-color-${style.color}-7)` }}
    >
      <Group align="flex-start" wrap="nowrap" gap="sm">
        {n.avatarUrl || n.user ? (
          <Avatar size="sm" avatarUrl={n.avatarUrl} firstName={n.user?.firstName} lastName={n.user?.lastName} />
        ) : (
          <ThemeIcon variant="light" color={style.color} radius="xl" size="md">
            <style.Icon size={16} aria-hidden />
          </ThemeIcon>
        )}
        <ExpandableBody expandable={expandable} expanded={n.isExpanded} onToggle={toggle}>
          <Group gap={6} wrap="nowrap" justify="space-between">
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {n.title}
            </Text>
            {expandable && <ExpandChevron expanded={n.isExpanded} />}
          </Group>
          {(n.category || n.receivedDate) && (
            <Text size="xs" c="dimmed">
              {[n.category, n.receivedDate].filter(Boolean).join(' · ')}
            </Text>
          )}
          {expandable && (
            <Collapse expanded={n.isExpanded}>
              <Text size="xs" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {n.expandedContent}
              </Text>
              {n.expandedButton && (
                <Anchor href={n.expandedButton.href} size="xs">
                  {n.expandedButton.label}
                </Anchor>
              )}
            </Collapse>
          )}
        </ExpandableBody>
        {n.isClosable && (
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Close notification" onClick={() => removeNotification(n.id)}>
            <IconX size={16} />
          </ActionIcon>
        )}
      </Group>
    </Paper>
  );
}
