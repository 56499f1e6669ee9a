import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from '#shared/zod';
import type {
  ChangeEmailBody,
  ChangeEmailResponse,
  RegisterBody,
  LoginBody,
  ResetLinkAnswer,
  loginResponseSchema,
  messageResponseSchema,
  registerResponseSchema,
} from '#shared/auth';
import { get, post } from '#client/lib/api.ts';
import { updatePageConfig } from '#client/lib/page-config.ts';

type RegisterResponse = z.infer<typeof registerResponseSchema>;
type RedirectResponse = z.infer<typeof loginResponseSchema>;
type MessageResponse = z.infer<typeof messageResponseSchema>;

export const useRegister = () =>
  useMutation({ mutationFn: (body: RegisterBody) => post<RegisterResponse>('/register', body) });
export const useLogin = () => useMutation({ mutationFn: (body: LoginBody) => post<RedirectResponse>('/login', body) });
export const useLogout = () => useMutation({ mutationFn: () => post<RedirectResponse>('/logout') });
export const useForgotPassword = () =>
  useMutation({ mutationFn: (body: { email: string }) => post<MessageResponse>('/password/forgot', body) });
/** Whether a reset link still works (404 unknown, 410 used or expired: an ApiError with the sentence to show); asking does not use it. */
export const useResetLink = (token: string) =>
  useQuery({
    queryKey: ['password-reset-link', token],
    queryFn: () => get<ResetLinkAnswer>(`/api/password/reset/${encodeURIComponent(token)}`),
    staleTime: Infinity,
  });
export const useResetPassword = () =>
  useMutation({
    mutationFn: (body: { token: string; password: string; password_confirmation: string }) =>
      post<MessageResponse>('/password/reset', body),
  });
export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: { current_password: string; password: string; password_confirmation: string }) =>
      post<MessageResponse>('/account/password', body),
  });
/** POST /account/email; once it is changed the page and its header show the new address (no `me` query: the page config). */
export const useChangeEmail = () =>
  useMutation({
    mutationFn: (body: ChangeEmailBody) => post<ChangeEmailResponse>('/account/email', body),
    onSuccess: (answer) => updatePageConfig({ authEmail: answer.email }),
  });

export { navigate } from '#client/lib/browser.ts';
