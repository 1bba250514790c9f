import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConversationPage, DriverMessage, MessageCreate, MessagePage, MessageReadResult, UploadedImage } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { messagesKeyRoot } from '../../lib/messages-live.ts';
import { orgPathFor } from '../../lib/org-path.ts';

// Web client of the messages between drivers and dispatch (issue 44). Every key starts with
// ['messages', orgId], so the stream's `conversation` push refreshes all of them at once.

export const messageKeys = {
  all: messagesKeyRoot,
  thread: (orgId: string, driverId: string, loadId: string | null) => [...messagesKeyRoot(orgId), 'thread', driverId, loadId ?? ''] as const,
  inbox: (orgId: string) => [...messagesKeyRoot(orgId), 'inbox'] as const,
  unread: (orgId: string) => [...messagesKeyRoot(orgId), 'unread'] as const,
};

const path = (orgId: string, rest = '') => orgPathFor(orgId, `/messages${rest}`);

/** A driver's conversation (or one load's part of it), newest page first; older pages on demand. */
export const threadQuery = (orgId: string, driverId: string, loadId: string | null) =>
  infiniteQueryOptions({
    queryKey: messageKeys.thread(orgId, driverId, loadId),
    queryFn: ({ pageParam, signal }) =>
      api<MessagePage>(path(orgId), {
        query: { driverId, ...(loadId ? { loadId } : {}), ...(pageParam ? { before: pageParam } : {}), size: 30 },
        signal,
        toast: false,
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    staleTime: 0,
    // The stream pushes changes; this is the fallback while it reconnects.
    refetchInterval: 60_000,
  });

export const inboxQuery = (orgId: string) =>
  queryOptions({
    queryKey: messageKeys.inbox(orgId),
    queryFn: ({ signal }) => api<ConversationPage>(path(orgId, '/conversations'), { signal, toast: false }),
    staleTime: 0,
    refetchInterval: 60_000,
  });

export const unreadMessagesQuery = (orgId: string) =>
  queryOptions({
    queryKey: messageKeys.unread(orgId),
    queryFn: ({ signal }) => api<{ unread: number }>(path(orgId, '/unread-count'), { signal, toast: false }),
    staleTime: 0,
    refetchInterval: 60_000,
  });

export function uploadMessagePhoto(orgId: string, file: Blob, name: string): Promise<UploadedImage> {
  const body = new FormData();
  body.append('file', file, name);
  return api<UploadedImage>(path(orgId, '/images'), { method: 'POST', body, toast: false });
}

/** Where a driver's message and its photos are sent (through the phone's outbox, issue 44). */
export const messagePaths = (orgId: string) => ({ messages: path(orgId), images: path(orgId, '/images') });

export function useSendMessage(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: MessageCreate) => api<DriverMessage>(path(orgId), { method: 'POST', body: input, toast: false }),
    onSuccess: () => qc.invalidateQueries({ queryKey: messageKeys.all(orgId) }),
  });
}

export function useMarkRead(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { driverId: string; upTo: string }) => api<MessageReadResult>(path(orgId, '/read'), { method: 'POST', body: input, toast: false }),
    onSuccess: (r) => {
      if (r.updated > 0) void qc.invalidateQueries({ queryKey: messageKeys.all(orgId) });
    },
  });
}

/** A fresh id for a message, so a resend after a lost answer stores it once. */
export function newClientId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}
