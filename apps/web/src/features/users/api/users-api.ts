import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteUserInput, OrganizationRole, Page, PageQuery, RoleInput, UpdateUserInput, User } from '@fleet/api-contract';
import { api } from '../../../lib/api-client.ts';
import { orgPathFor } from '../../../lib/org-path.ts';

export interface UserFilters extends PageQuery {
  roleId?: string;
  status?: string;
}

export const userAdminKeys = {
  users: (orgId: string) => ['user-admin', orgId, 'users'] as const,
  userList: (orgId: string, q: UserFilters) => ['user-admin', orgId, 'users', q] as const,
  roles: (orgId: string) => ['user-admin', orgId, 'roles'] as const,
  roleList: (orgId: string, q: PageQuery) => ['user-admin', orgId, 'roles', q] as const,
};

export const usersQuery = (orgId: string, q: UserFilters) =>
  queryOptions({
    queryKey: userAdminKeys.userList(orgId, q),
    queryFn: ({ signal }) => api<Page<User>>(orgPathFor(orgId, '/users'), { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });

export const rolesQuery = (orgId: string, q: PageQuery) =>
  queryOptions({
    queryKey: userAdminKeys.roleList(orgId, q),
    queryFn: ({ signal }) => api<Page<OrganizationRole>>(orgPathFor(orgId, '/roles'), { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });

/** Every role, for the role pickers (an organization has a handful). */
export const allRolesQuery = (orgId: string) => rolesQuery(orgId, { page: 0, size: 500, sort: 'name,asc' });

function useInvalidate(orgId: string) {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: userAdminKeys.users(orgId) }), qc.invalidateQueries({ queryKey: userAdminKeys.roles(orgId) })]);
}

export function useInviteUser(orgId: string) {
  const invalidate = useInvalidate(orgId);
  return useMutation({
    mutationFn: (input: InviteUserInput) => api<User>(orgPathFor(orgId, '/users'), { method: 'POST', body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdateUser(orgId: string) {
  const invalidate = useInvalidate(orgId);
  return useMutation({
    mutationFn: ({ userId, input }: { userId: string; input: UpdateUserInput }) =>
      api<User>(orgPathFor(orgId, `/users/${userId}`), { method: 'PUT', body: input }),
    onSuccess: invalidate,
  });
}

export function useUserAction(orgId: string) {
  const invalidate = useInvalidate(orgId);
  return useMutation({
    mutationFn: ({ userId, action }: { userId: string; action: 'deactivate' | 'activate' | 'password-reset' }) =>
      api<unknown>(orgPathFor(orgId, `/users/${userId}/${action}`), { method: 'POST' }),
    onSuccess: invalidate,
  });
}

export function useSaveRole(orgId: string) {
  const invalidate = useInvalidate(orgId);
  return useMutation({
    mutationFn: ({ roleId, input }: { roleId?: string; input: RoleInput }) =>
      api<OrganizationRole>(orgPathFor(orgId, roleId ? `/roles/${roleId}` : '/roles'), { method: roleId ? 'PUT' : 'POST', body: input }),
    onSuccess: invalidate,
  });
}

export function useDeleteRole(orgId: string) {
  const invalidate = useInvalidate(orgId);
  return useMutation({ mutationFn: (roleId: string) => api<void>(orgPathFor(orgId, `/roles/${roleId}`), { method: 'DELETE' }), onSuccess: invalidate });
}

/** Every user, for pickers (the activity-log user filter). */
export const allUsersQuery = (orgId: string) => usersQuery(orgId, { page: 0, size: 500, sort: 'lastName,asc' });
