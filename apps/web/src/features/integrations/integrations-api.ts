import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApiTokenCreated,
  ApiTokenInput,
  ApiTokenList,
  Page,
  Webhook,
  WebhookCreated,
  WebhookDelivery,
  WebhookEventTypeInfo,
  WebhookInput,
  WebhookList,
  WebhookSecret,
} from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPath } from '../../lib/org-path.ts';

// Organization account → API tokens and Webhooks (issue 48): one query factory per list (it owns its
// key), and mutations that invalidate by those keys.

export const integrationKeys = {
  tokens: ['integrations', 'api-tokens'] as const,
  hooks: ['integrations', 'webhooks'] as const,
  eventTypes: ['integrations', 'webhook-event-types'] as const,
  deliveries: (id: string, page: number) => ['integrations', 'webhooks', id, 'deliveries', page] as const,
};

export const apiTokensQuery = () =>
  queryOptions({ queryKey: integrationKeys.tokens, queryFn: ({ signal }) => api<ApiTokenList>(orgPath('/api-tokens'), { signal }) });
export const webhooksQuery = () =>
  queryOptions({ queryKey: integrationKeys.hooks, queryFn: ({ signal }) => api<WebhookList>(orgPath('/webhooks'), { signal }) });
export const eventTypesQuery = () =>
  queryOptions({
    queryKey: integrationKeys.eventTypes,
    queryFn: ({ signal }) => api<{ content: WebhookEventTypeInfo[] }>(orgPath('/webhooks/event-types'), { signal }),
    staleTime: Infinity,
  });
export const deliveriesQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: integrationKeys.deliveries(id, page),
    queryFn: ({ signal }) => api<Page<WebhookDelivery>>(orgPath(`/webhooks/${id}/deliveries`), { query: { page, size: 15 }, signal }),
    placeholderData: keepPreviousData,
    // Pending deliveries change on their own: looked at again while the list is open.
    refetchInterval: 3000,
  });

export const useApiTokens = () => useQuery(apiTokensQuery());
export const useWebhooks = () => useQuery(webhooksQuery());
export const useEventTypes = () => useQuery(eventTypesQuery());
export const useDeliveries = (id: string, page: number) => useQuery(deliveriesQuery(id, page));

function useInvalidating<V, R>(fn: (v: V) => Promise<R>, key: readonly string[]) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: key }) });
}

/** Field messages are shown by the form: no toast on 400. */
export const useCreateToken = () =>
  useInvalidating((body: ApiTokenInput) => api<ApiTokenCreated>(orgPath('/api-tokens'), { method: 'POST', body, toast: false }), integrationKeys.tokens);
export const useRevokeToken = () => useInvalidating((id: string) => api<null>(orgPath(`/api-tokens/${id}`), { method: 'DELETE' }), integrationKeys.tokens);

export const useSaveWebhook = () =>
  useInvalidating(
    ({ id, body }: { id?: string; body: WebhookInput }) =>
      id
        ? api<Webhook | WebhookCreated>(orgPath(`/webhooks/${id}`), { method: 'PUT', body, toast: false })
        : api<Webhook | WebhookCreated>(orgPath('/webhooks'), { method: 'POST', body, toast: false }),
    integrationKeys.hooks,
  );
export const useDeleteWebhook = () => useInvalidating((id: string) => api<null>(orgPath(`/webhooks/${id}`), { method: 'DELETE' }), integrationKeys.hooks);
export const useRotateSecret = () =>
  useInvalidating((id: string) => api<WebhookSecret>(orgPath(`/webhooks/${id}/rotate-secret`), { method: 'POST' }), integrationKeys.hooks);
export const useSendTest = () =>
  useInvalidating((id: string) => api<WebhookDelivery>(orgPath(`/webhooks/${id}/test`), { method: 'POST' }), integrationKeys.hooks);
export const useResend = () =>
  useInvalidating(
    ({ id, deliveryId }: { id: string; deliveryId: string }) =>
      api<WebhookDelivery>(orgPath(`/webhooks/${id}/deliveries/${deliveryId}/resend`), { method: 'POST' }),
    integrationKeys.hooks,
  );
