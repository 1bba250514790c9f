import { useMutation } from '@tanstack/react-query';
import type { RegisterInput, SignInResponse, UndoEmailChangeResult } from '@fleet/api-contract';
import { api } from '../../../lib/api-client.ts';
import { startSession } from '../../../lib/session.ts';

/** POST auth/register with the spec's defaults (role USER, id 1); the returned tokens are stored. */
export function useRegister() {
  return useMutation({
    mutationFn: (input: Omit<RegisterInput, 'role' | 'id'>) =>
      api<SignInResponse>('/auth/register', { method: 'POST', body: { ...input, role: 'USER', id: 1 }, auth: false }),
    onSuccess: (res) => startSession(res),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { email: string }) => api<{ message: string }>('/auth/reset-password', { method: 'POST', body: input, auth: false }),
  });
}

export function useCreateNewPassword() {
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => api<void>('/auth/create-new-password', { method: 'POST', body: input, auth: false }),
  });
}

/** Undo a change of e-mail with the link sent to the old address (decision 0227). */
export function useUndoEmailChange() {
  return useMutation({
    mutationFn: (input: { token: string }) => api<UndoEmailChangeResult>('/auth/undo-email-change', { method: 'POST', body: input, auth: false }),
  });
}
