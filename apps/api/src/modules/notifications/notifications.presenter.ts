import { NOTIFICATION_KIND_INFO, NOTIFICATION_KINDS, type NotificationKind, type ServerNotification } from '@fleet/api-contract';
import type { notifications } from '../../db/schema/index.ts';

export type NotificationRow = typeof notifications.$inferSelect;

/** How long the toast of a new notification stays: good news closes itself, problems wait to be closed. */
const SUCCESS_TOAST_MS = 8000;

const kindOf = (k: string): NotificationKind => ((NOTIFICATION_KINDS as readonly string[]).includes(k) ? (k as NotificationKind) : 'IMPORT_FINISHED');

/**
 * A stored notification in the spec's fields (sections 3 and 4): an unread one takes its kind's
 * type (alert, success or not-viewed), a read one is "viewed". Its toast shows once per browser.
 */
export function presentNotification(r: NotificationRow): ServerNotification {
  const kind = kindOf(r.kind);
  const info = NOTIFICATION_KIND_INFO[kind];
  return {
    id: r.id,
    kind,
    title: r.title,
    category: info.label,
    receivedDate: r.createdAt.toISOString(),
    occurredAt: (r.occurredAt ?? r.createdAt).toISOString(),
    readAt: r.readAt ? r.readAt.toISOString() : null,
    type: r.readAt ? 'viewed' : info.type,
    isExpanded: false,
    isClosable: true,
    expandedContent: r.body,
    expandedButton: r.link ? { label: r.linkLabel ?? 'Open', href: r.link } : null,
    iconName: info.iconName,
    avatarUrl: null,
    user: r.subject ?? null,
    timeout: info.type === 'success' ? SUCCESS_TOAST_MS : 0,
    showOnce: true,
  };
}
