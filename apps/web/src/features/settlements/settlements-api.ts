import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Page,
  PayAdjustment,
  PayAdjustmentInput,
  PayProfile,
  PayProfileInput,
  Settlement,
  SettlementCreate,
  SettlementSummary,
} from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/download.ts';
import { orgPathFor, useEffectiveOrganizationId } from '../../lib/org-path.ts';
import type { QueryValue } from '../../lib/query-string.ts';

// The driver-pay screens' calls (issue 70): settlements and their steps, pay profiles and the
// deductions and reimbursements of a driver, and the statement's PDF. Every key sits under
// ['settlements', orgId], so any change refreshes the lists, the settlement and the driver's screen.

export const settlementKeys = {
  all: (orgId: string | null) => ['settlements', orgId] as const,
  list: (orgId: string | null, q: Record<string, QueryValue>) => ['settlements', orgId, 'list', q] as const,
  one: (orgId: string | null, id: string) => ['settlements', orgId, 'one', id] as const,
  profiles: (orgId: string | null) => ['settlements', orgId, 'profiles'] as const,
  profile: (orgId: string | null, driverId: string) => ['settlements', orgId, 'profile', driverId] as const,
  adjustments: (orgId: string | null, driverId: string) => ['settlements', orgId, 'adjustments', driverId] as const,
  drivers: (orgId: string | null) => ['settlements', orgId, 'drivers'] as const,
};

const at = (orgId: string | null, path: string) => orgPathFor(orgId ?? '', path);
const id = (v: string) => encodeURIComponent(v);

/** A page of settlements (the office's, or a driver's own approved and paid ones). */
export function useSettlements(q: Record<string, QueryValue>, enabled = true) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: settlementKeys.list(orgId, q),
    queryFn: ({ signal }) => api<Page<SettlementSummary>>(at(orgId, '/settlements'), { query: q, signal, toast: false }),
    placeholderData: keepPreviousData,
    enabled: enabled && !!orgId,
  });
}

export function useSettlement(settlementId: string) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: settlementKeys.one(orgId, settlementId),
    queryFn: ({ signal }) => api<Settlement>(at(orgId, `/settlements/${id(settlementId)}`), { signal, toast: false }),
    enabled: !!orgId && !!settlementId,
  });
}

export function usePayProfiles() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: settlementKeys.profiles(orgId),
    queryFn: ({ signal }) => api<PayProfile[]>(at(orgId, '/pay-profiles'), { signal, toast: false }),
    enabled: !!orgId,
  });
}

export function usePayProfile(driverId: string | null) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: settlementKeys.profile(orgId, driverId ?? ''),
    queryFn: ({ signal }) => api<PayProfile>(at(orgId, `/drivers/${id(driverId!)}/pay-profile`), { signal, toast: false }),
    enabled: !!orgId && !!driverId,
  });
}

export function useAdjustments(driverId: string | null) {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: settlementKeys.adjustments(orgId, driverId ?? ''),
    queryFn: ({ signal }) => api<PayAdjustment[]>(at(orgId, `/drivers/${id(driverId!)}/pay-adjustments`), { signal, toast: false }),
    enabled: !!orgId && !!driverId,
  });
}

/** The organization's drivers for the pickers and the pay profiles' list (first 500 by name). */
export function useDrivers() {
  const orgId = useEffectiveOrganizationId();
  return useQuery({
    queryKey: settlementKeys.drivers(orgId),
    queryFn: ({ signal }) =>
      api<Page<{ id: string; firstName: string; lastName: string; status?: string }>>(at(orgId, '/drivers'), {
        query: { size: 500, sort: 'lastName,asc' },
        signal,
        toast: false,
      }),
    enabled: !!orgId,
    staleTime: 5 * 60_000,
  });
}

/** A mutation that refreshes every driver-pay screen once it succeeds; errors come back untoasted, for the form to show. */
export function useSettlementMutation<V, R>(fn: (orgId: string, v: V) => Promise<R>) {
  const orgId = useEffectiveOrganizationId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => fn(orgId ?? '', v),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: settlementKeys.all(orgId) });
    },
  });
}

export const createSettlement = (orgId: string, body: SettlementCreate) => api<Settlement>(at(orgId, '/settlements'), { method: 'POST', body, toast: false });

export const settlementStep = (orgId: string, { settlementId, step, body }: { settlementId: string; step: 'approve' | 'paid' | 'void'; body?: unknown }) =>
  api<Settlement>(at(orgId, `/settlements/${id(settlementId)}/${step}`), { method: 'POST', body: body ?? {}, toast: false });

export const savePayProfile = (orgId: string, { driverId, body }: { driverId: string; body: PayProfileInput }) =>
  api<PayProfile>(at(orgId, `/drivers/${id(driverId)}/pay-profile`), { method: 'PUT', body, toast: false });

export const addAdjustment = (orgId: string, { driverId, body }: { driverId: string; body: PayAdjustmentInput }) =>
  api<PayAdjustment>(at(orgId, `/drivers/${id(driverId)}/pay-adjustments`), { method: 'POST', body, toast: false });

export const removeAdjustment = (orgId: string, { driverId, adjustmentId }: { driverId: string; adjustmentId: string }) =>
  api<void>(at(orgId, `/drivers/${id(driverId)}/pay-adjustments/${id(adjustmentId)}`), { method: 'DELETE', toast: false });

/**
 * Opens the statement's PDF in a new tab (a window opened at the tap, so no pop-up blocker stops it),
 * or saves it where no tab can open (an app in standalone mode).
 */
export async function openStatement(orgId: string, s: Pick<SettlementSummary, 'id' | 'number'>): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const blob = await api<Blob>(at(orgId, `/settlements/${id(s.id)}/pdf`), { blob: true, toast: false });
    const file = new Blob([blob], { type: 'application/pdf' });
    if (tab) {
      const url = URL.createObjectURL(file);
      tab.location.href = url;
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } else saveFile(file, `pay-statement-${s.number}.pdf`);
  } catch (err) {
    tab?.close();
    throw err;
  }
}
