import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { RegisterBody, LoginBody, loginResponseSchema, messageResponseSchema, registerResponseSchema } from '#shared/auth';
import { post } from '#client/lib/api.ts';

type RegisterResponse = z.infer<typeof registerResponseSchema>;
type RedirectResponse = z.infer<typeof loginResponseSchema>;
type MessageResponse = z.infer<typeof messageResponseSchema>;

export const useRegister = () => useMutation({ mutationFn: (body: RegisterBody) => post<RegisterResponse>('/register', body) });
export const useLogin = () => useMutation({ mutationFn: (body: LoginBody) => post<RedirectResponse>('/login', body) });
export const useLogout = () => useMutation({ mutationFn: () => post<RedirectResponse>('/logout') });
export const useForgotPassword = () => useMutation({ mutationFn: (body: { email: string }) => post<MessageResponse>('/password/forgot', body) });
export const useResetPassword = () =>
  useMutation({ mutationFn: (body: { token: string; password: string; password_confirmation: string }) => post<MessageResponse>('/password/reset', body) });
export const useChangePassword = () =>
  useMutation({ mutationFn: (body: { current_password: string; password: string; password_confirmation: string }) => post<MessageResponse>('/account/password', body) });

export { navigate } from '#client/lib/browser.ts';
