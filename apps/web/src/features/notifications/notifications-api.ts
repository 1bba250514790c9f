import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  NotificationEvent,
  NotificationKind,
  NotificationPage,
  NotificationPreferences,
  NotificationPreferencesInput,
  NotificationSelection,
} from '@fleet/api-contract';
import { STREAM_REVOKED_EVENT } from '@fleet/api-contract/answer-readers';
import { api, API_PREFIX, ApiError } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { i18next } from '../../i18n/i18n.ts';
import { notificationWords } from './notification-words.ts';
import { hosRefresher } from '../../lib/hos-live.ts';
import { onConversationChanged } from '../../lib/messages-live.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { onStreamRevoked, parseStreamRevoked } from '../../lib/stream-revoked.ts';

// Web client of the signed-in user's notifications: the list, the unread count, read and clear,
// the choice of kinds, and the live stream that keeps the bell current.

/** The list's filters and page, as the API takes them. */
export interface NotificationListQuery {
  page: number;
  size: number;
  status?: 'all' | 'unread' | 'read';
  kind?: NotificationKind;
  from?: string;
  to?: string;
  search?: string;
}

export const notificationKeys = {
  all: (orgId: string) => ['notifications', orgId] as const,
  list: (orgId: string, q: NotificationListQuery) => ['notifications', orgId, 'list', q] as const,
  unread: (orgId: string) => ['notifications', orgId, 'unread'] as const,
  preferences: (orgId: string) => ['notifications', orgId, 'preferences'] as const,
};

export const notificationListQuery = (orgId: string, q: NotificationListQuery) =>
  queryOptions({
    queryKey: notificationKeys.list(orgId, q),
    queryFn: ({ signal }) => api<NotificationPage>(orgPathFor(orgId, '/notifications'), { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const unreadCountQuery = (orgId: string) =>
  queryOptions({
    queryKey: notificationKeys.unread(orgId),
    queryFn: ({ signal }) => api<{ unread: number }>(orgPathFor(orgId, '/notifications/unread-count'), { signal, toast: false }),
    staleTime: 0,
    // The stream keeps it current; this is the fallback while it reconnects.
    refetchInterval: 60_000,
  });

export const preferencesQuery = (orgId: string) =>
  queryOptions({
    queryKey: notificationKeys.preferences(orgId),
    queryFn: ({ signal }) => api<NotificationPreferences>(orgPathFor(orgId, '/notifications/preferences'), { signal }),
  });

/** The user's notifications (the panel's tabs, the /notifications page). */
export function useNotificationList(q: NotificationListQuery, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({ ...notificationListQuery(orgId ?? '', q), enabled: enabled && !!orgId });
}

export function useUnreadCount() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({ ...unreadCountQuery(orgId ?? ''), enabled: !!orgId });
}

export function useNotificationPreferences() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({ ...preferencesQuery(orgId ?? ''), enabled: !!orgId });
}

function useInvalidateAll() {
  const qc = useQueryClient();
  const orgId = useEffectiveOrganizationId();
  return () => qc.invalidateQueries({ queryKey: notificationKeys.all(orgId ?? '') });
}

/** Mark read (`ids` or `all`). */
export function useMarkRead() {
  const orgId = useEffectiveOrganizationId();
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (sel: NotificationSelection) =>
      api<{ changed: number; unread: number }>(orgPathFor(orgId ?? '', '/notifications/read'), { method: 'POST', body: sel }),
    onSuccess: invalidate,
  });
}

/** Clear from the panel and the list (`ids` or `all`). */
export function useClearNotifications() {
  const orgId = useEffectiveOrganizationId();
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (sel: NotificationSelection) =>
      api<{ changed: number; unread: number }>(orgPathFor(orgId ?? '', '/notifications/clear'), { method: 'POST', body: sel }),
    onSuccess: invalidate,
  });
}

export function useSavePreferences() {
  const orgId = useEffectiveOrganizationId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationPreferencesInput) =>
      api<NotificationPreferences>(orgPathFor(orgId ?? '', '/notifications/preferences'), { method: 'PUT', body: input }),
    onSuccess: (data) => qc.setQueryData(notificationKeys.preferences(orgId ?? ''), data),
  });
}

/**
 * Keeps the bell live: a single-use ticket, then an EventSource on the user's notification stream;
 * a new notification refreshes the lists and shows as a toast (its timeout and show-once rule
 * apply); a `hos` event (drivers' records changed) refetches the HoS screens on view; on any error the source is closed and opened again after 1 s, doubling to 30 s.
 * A `revoked` event (the user's session or access ended) closes it too; the new connection's ticket
 * request then signs the user out when the session is over (onStreamRevoked).
 */
export function useNotificationStream(): void {
  const orgId = useEffectiveOrganizationId();
  const qc = useQueryClient();
  useEffect(() => {
    if (!orgId || typeof EventSource === 'undefined') return;
    let stopped = false;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;
    let connectedOnce = false;
    const hosChanged = hosRefresher(qc, orgId);
    const conversationChanged = onConversationChanged(qc, orgId);
    const retry = () => {
      if (stopped) return;
      attempt++;
      const ms = Math.min(30_000, 1000 * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);
      timer = setTimeout(connect, ms);
    };
    const connect = async () => {
      try {
        const { ticket } = await api<{ ticket: string }>(orgPathFor(orgId, '/notifications/stream/ticket'), { method: 'POST', toast: false });
        if (stopped) return;
        const es = new EventSource(`${API_PREFIX}${orgPathFor(orgId, '/notifications/stream')}?ticket=${encodeURIComponent(ticket)}`);
        source = es;
        es.addEventListener('unread', (e) => {
          // Also the stream's first event: conversations that changed before it opened were not pushed.
          if (attempt > 0 || !connectedOnce) conversationChanged();
          connectedOnce = true;
          attempt = 0;
          qc.setQueryData(notificationKeys.unread(orgId), { unread: (JSON.parse(e.data) as { unread: number }).unread });
          void qc.invalidateQueries({ queryKey: [...notificationKeys.all(orgId), 'list'] });
        });
        es.addEventListener('hos', hosChanged);
        es.addEventListener('conversation', conversationChanged);
        es.addEventListener('notification', (e) => {
          const { notification: sent, unread } = JSON.parse(e.data) as NotificationEvent;
          qc.setQueryData(notificationKeys.unread(orgId), { unread });
          void qc.invalidateQueries({ queryKey: [...notificationKeys.all(orgId), 'list'] });
          // What the server wrote in English, in the driver's language where it is known (issue 44).
          const n = notificationWords(i18next.t, sent);
          notify({
            id: `server-${n.id}`,
            title: n.title,
            category: n.category,
            receivedDate: formatDateTime(n.occurredAt),
            type: n.type,
            expandedContent: n.expandedContent ?? undefined,
            expandedButton: n.expandedButton ?? undefined,
            iconName: n.iconName,
            user: n.user ?? undefined,
            timeout: n.timeout || 10_000,
            showOnce: n.showOnce,
            isClosable: true,
          });
        });
        es.addEventListener(STREAM_REVOKED_EVENT, (e) => {
          es.close();
          if (source !== es) return;
          source = null;
          onStreamRevoked(parseStreamRevoked(e.data));
          retry();
        });
        es.onerror = () => {
          es.close();
          if (source === es) source = null;
          retry();
        };
      } catch (err) {
        // Signed out or no such organization: retrying will not help.
        if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429) return;
        retry();
      }
    };
    void connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      source?.close();
    };
  }, [orgId, qc]);
}
