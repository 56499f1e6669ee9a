import { useParams, useSearchParams } from 'react-router';
import { openModal } from '#client/components/ui/modal-events.ts';
import { LoginForm } from '#client/features/auth/components/login-form.tsx';
import { ForgotPasswordForm, ResetPasswordForm } from '#client/features/auth/components/password-forms.tsx';
import { REGISTER_MODAL } from '#client/features/auth/register.ts';
import { AuthCard } from './common.tsx';

export function LoginPage() {
  const [params] = useSearchParams();
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to pick up where you left off.">
      <LoginForm to={params.get('to')} />
      <p className="mt-6 text-center text-muted">
        New to Backbeat?{' '}
        <button type="button" className="min-h-11 font-semibold text-accent-strong underline-offset-2 hover:underline" onClick={() => openModal(REGISTER_MODAL)}>
          Create an account
        </button>
      </p>
    </AuthCard>
  );
}

export const ForgotPasswordPage = () => (
  <AuthCard title="Forgot your password?" subtitle="Enter your email and we will send you a link to choose a new one.">
    <ForgotPasswordForm />
  </AuthCard>
);

export function ResetPasswordPage() {
  const { token = '' } = useParams();
  return (
    <AuthCard title="Choose a new password" subtitle="Signing in with the new password signs you out everywhere else.">
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
