import type { QueryClient } from '@tanstack/react-query';

// Messages pushed by the server (the notification stream's `conversation {driverId}` event, issue 44): every
// messages query of the organization starts with this key, so one push refetches the open
// conversation, the inbox and the unread badges, wherever they are on screen.

export const messagesKeyRoot = (orgId: string) => ['messages', orgId] as const;

export function onConversationChanged(qc: QueryClient, orgId: string): () => void {
  return () => void qc.invalidateQueries({ queryKey: messagesKeyRoot(orgId) });
}
