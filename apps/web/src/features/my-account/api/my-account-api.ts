import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, User, UserProfileInput } from '@fleet/api-contract';
import { api } from '../../../lib/api-client.ts';
import { setCurrentUser } from '../../../lib/auth-store.ts';
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
    mutationFn: (input: UserProfileInput) => api<User>(orgPathFor(orgId, `/users/${userId}`), { method: 'PUT', body: input }),
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

export function useChangePassword(orgId: string, userId: string) {
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      api<void>(orgPathFor(orgId, `/users/${userId}/changePassword`), { method: 'PUT', body: input }),
  });
}
