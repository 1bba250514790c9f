import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { HosDeclaration, HosDeclarationKind, HosDeclarationList } from '@fleet/api-contract';
import { api } from '../../lib/api-client.ts';
import { orgPathFor } from '../../lib/org-path.ts';
import type { CrossingsOwner } from './hos-crossings-api.ts';
import { hosKeys } from './hos-api.ts';

// A driver's log declarations (issue 72, decisions 0314 and 0315): cycle switches, adverse driving
// conditions and emergencies. The office reads them by driver, the driver by their own user. A
// declaration changes the rules the log is judged by: every HoS view is refreshed.

/** Whose declarations: the office's path by driver, the driver's own by user (as the crossings'). */
export type DeclarationsOwner = CrossingsOwner;

const base = (orgId: string, owner: DeclarationsOwner) =>
  orgPathFor(
    orgId,
    'driverId' in owner ? `/drivers/${encodeURIComponent(owner.driverId)}/hos_declarations` : `/users/${encodeURIComponent(owner.userId)}/hos_declarations`,
  );

export const declarationsQuery = (orgId: string, owner: DeclarationsOwner, from: string, to: string) =>
  queryOptions({
    queryKey: [...hosKeys.all(orgId), 'declarations', owner, from, to] as const,
    queryFn: ({ signal }) => api<HosDeclarationList>(base(orgId, owner), { query: { from, to }, signal }),
  });

export type DeclarationChange =
  | { kind: 'add'; declaration: { kind: HosDeclarationKind; at: string; until?: string; cycle?: 1 | 2; annotation: string } }
  | { kind: 'remove'; id: string; annotation: string };

/** Declares or withdraws, with its annotation. */
export function useChangeDeclaration(orgId: string, owner: DeclarationsOwner) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (c: DeclarationChange) => {
      const path = base(orgId, owner);
      if (c.kind === 'add') return api<HosDeclaration>(path, { method: 'POST', body: c.declaration, toast: false });
      return api<undefined>(`${path}/${c.id}`, { method: 'DELETE', body: { annotation: c.annotation }, toast: false });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: hosKeys.all(orgId) }),
  });
}
