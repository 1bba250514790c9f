import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, Tokens, User, UserProfileInput } from '@fleet/api-contract';
import { api, endSession } from '../../../lib/api-client.ts';
import { setCurrentUser, setTokens } from '../../../lib/auth-store.ts';
import { noteSessionEnded } from '../../../lib/session-ended.ts';
import { orgPathFor } from '../../../lib/org-path.ts';

/** Query keys of this feature; mutations invalidate through them. */
export const myAccountKeys = {
  all: ['my-account'] as const,
  user: (orgId: string, userId: string) => ['my-account', 'user', orgId, userId] as const,
};

/** GET organizations/{orgId}/users/{userId}: the signed-in user's own profile. */
export const myProfileQuery = (orgId: string, userId: string) =>
  queryOptions({
    queryKey: myAccountKeys.user(orgId, userId),
    queryFn: ({ signal }) => api<User>(orgPathFor(orgId, `/users/${userId}`), { signal }),
  });

/** The header avatar and profile drawer read the current user: refresh it after a change. */
async function refreshCurrentUser(): Promise<void> {
  const me = await api<CurrentUser>('/auth/me', { toast: false }).catch(() => null);
  if (me) setCurrentUser(me);
}

export function useUpdateProfile(orgId: string, userId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: UserProfileInput & { currentPassword?: string }) => api<User>(orgPathFor(orgId, `/users/${userId}`), { method: 'PUT', body: input }),
    onSuccess: async (user) => {
      qc.setQueryData(myAccountKeys.user(orgId, userId), user);
      await refreshCurrentUser();
    },
  });
}

export function useUploadAvatar(orgId: string, userId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return api<{ profilePicture: string }>(orgPathFor(orgId, `/users/${userId}/image`), { method: 'POST', body });
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: myAccountKeys.user(orgId, userId) });
      await refreshCurrentUser();
    },
  });
}

export function useRemoveAvatar(orgId: string, userId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>(orgPathFor(orgId, `/users/${userId}/image`), { method: 'DELETE' }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: myAccountKeys.user(orgId, userId) });
      await refreshCurrentUser();
    },
  });
}

/** PUT …/users/{userId}/changePassword: every session ends; this tab goes on with the new one answered. */
export function useChangePassword(orgId: string, userId: string) {
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      api<Tokens>(orgPathFor(orgId, `/users/${userId}/changePassword`), { method: 'PUT', body: input }),
    onSuccess: (tokens) => setTokens(tokens),
  });
}

/** POST auth/logout-everywhere: every session of the user ends, this one too; then the sign-in page says so. */
export function useLogoutEverywhere() {
  return useMutation({
    mutationFn: () => api<void>('/auth/logout-everywhere', { method: 'POST' }),
    onSuccess: () => {
      noteSessionEnded('You logged out on every device, this one too.', 'success');
      endSession();
    },
  });
}
