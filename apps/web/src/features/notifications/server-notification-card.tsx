import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Anchor, Collapse, Group, Paper, Text, ThemeIcon, Tooltip } from '@mantine/core';
import {
  IconAlertOctagon,
  IconAlertTriangle,
  IconBell,
  IconCalendarExclamation,
  IconCertificateOff,
  IconTemperature,
  IconCheck,
  IconClockExclamation,
  IconDatabaseExclamation,
  IconEngine,
  IconFileAlert,
  IconFileImport,
  IconForbid,
  IconGasStationOff,
  IconHourglassLow,
  IconMapPin,
  IconMapPinOff,
  IconMessage,
  IconPencilCheck,
  IconPlugConnectedX,
  IconSteeringWheel,
  IconTool,
  IconTrash,
  IconUserQuestion,
  IconWebhookOff,
  IconX,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ServerNotification } from '@fleet/api-contract';
import { Avatar } from '../../components/avatar.tsx';
import { ExpandableBody, ExpandChevron, NOTIFICATION_COLORS } from '../../components/notification-card.tsx';
import { formatShortDateTime } from '../../lib/dates.ts';
import { notificationWords } from './notification-words.ts';

/** The contract's icon names (NOTIFICATION_KIND_INFO[kind].iconName) as Tabler icons. */
export const ICONS: Record<string, typeof IconBell> = {
  'alert-triangle': IconAlertTriangle,
  'hourglass-low': IconHourglassLow,
  'user-question': IconUserQuestion,
  'plug-connected-x': IconPlugConnectedX,
  'pencil-check': IconPencilCheck,
  'file-alert': IconFileAlert,
  trash: IconTrash,
  'file-import': IconFileImport,
  'alert-octagon': IconAlertOctagon,
  'steering-wheel': IconSteeringWheel,
  tool: IconTool,
  // Issue 32: places.
  'map-pin': IconMapPin,
  'map-pin-off': IconMapPinOff,
  forbid: IconForbid,
  'clock-exclamation': IconClockExclamation,
  'database-exclamation': IconDatabaseExclamation,
  // Issue 44: messages.
  message: IconMessage,
  // Issue 46: engine faults.
  engine: IconEngine,
  // Issue 48: webhooks.
  'webhook-off': IconWebhookOff,
  // Issue 68: a fuel level drop.
  'gas-station-off': IconGasStationOff,
  // Issue 71: compliance papers expiring and expired.
  'calendar-exclamation': IconCalendarExclamation,
  'certificate-off': IconCertificateOff,
  // Issue 73: a reefer temperature out of range.
  temperature: IconTemperature,
};

export interface ServerNotificationCardProps {
  n: ServerNotification;
  /** Called when the reader opens or expands it (mark read). */
  onRead?: (id: string) => void;
  /** Called by the close button (clear). */
  onClose?: (id: string) => void;
  /** Draw without border and shadow (inside the panel's list). */
  flat?: boolean;
}

/**
 * One server notification in the spec's fields (sections 3 and 4): its type colours the edge and
 * icon, the expanded content opens by click or Enter (which also marks it read), the button links
 * to what it is about, and close clears it.
 */
export function ServerNotificationCard({ n: sent, onRead, onClose, flat }: ServerNotificationCardProps) {
  const { t } = useTranslation();
  // What the server wrote in English, in the driver's language where it is known (issue 44).
  const n = useMemo(() => notificationWords(t, sent), [sent, t]);
  const [expanded, setExpanded] = useState(n.isExpanded);
  const color = NOTIFICATION_COLORS[n.type];
  const Icon = n.type === 'success' ? IconCheck : (ICONS[n.iconName] ?? IconBell);
  const expandable = !!n.expandedContent || !!n.expandedButton;
  const toggle = () => {
    if (!expandable) return;
    setExpanded((x) => !x);
    if (!n.readAt) onRead?.(n.id);
  };
  return (
    <Paper
      withBorder={!flat}
      shadow={flat ? undefined : 'xs'}
      p="sm"
      radius={flat ? 0 : 'md'}
      data-testid="server-notification"
      data-type={n.type}
      data-kind={n.kind}
      style={{ borderLeft: `4px solid var(--mantine-color-${color}-7)` }}
    >
      <Group align="flex-start" wrap="nowrap" gap="sm">
        {n.user ? (
          <Avatar size="sm" firstName={n.user.firstName} lastName={n.user.lastName} avatarUrl={n.avatarUrl} />
        ) : (
          <ThemeIcon variant="light" color={color} radius="xl" size="md">
            <Icon size={16} aria-hidden />
          </ThemeIcon>
        )}
        <ExpandableBody expandable={expandable} expanded={expanded} onToggle={toggle}>
          <Group gap={6} wrap="nowrap" justify="space-between" align="flex-start">
            <Text fw={n.readAt ? 500 : 700} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {n.title}
            </Text>
            {expandable && <ExpandChevron expanded={expanded} />}
          </Group>
          <Text size="xs" c="dimmed">
            {n.category} · {formatShortDateTime(n.occurredAt)}
            {!n.readAt && (
              <Text span size="xs" fw={700} c="var(--mantine-color-text)">
                {' '}
                · New
              </Text>
            )}
          </Text>
          {expandable && (
            <Collapse expanded={expanded}>
              {n.expandedContent && (
                <Text size="xs" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {n.expandedContent}
                </Text>
              )}
              {n.expandedButton && (
                <Anchor component={Link} to={n.expandedButton.href} size="xs" fw={600} onClick={(e) => e.stopPropagation()}>
                  {n.expandedButton.label}
                </Anchor>
              )}
            </Collapse>
          )}
        </ExpandableBody>
        {n.isClosable && onClose && (
          <Tooltip label="Clear">
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Clear notification: ${n.title}`} onClick={() => onClose(n.id)}>
              <IconX size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    </Paper>
  );
}
