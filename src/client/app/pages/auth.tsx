import { useState } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { LIMITS } from '#shared/constants';
import { ApiError } from '#client/lib/api.ts';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Link } from '#client/components/ui/link.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { openModal } from '#client/components/ui/modal-events.ts';
import { LoginForm } from '#client/features/auth/components/login-form.tsx';
import { ForgotPasswordForm, ResetPasswordForm } from '#client/features/auth/components/password-forms.tsx';
import { useResetLink } from '#client/features/auth/api/auth.ts';
import { REGISTER_MODAL } from '#client/features/auth/register.ts';
import { AuthCard } from './common.tsx';

/**
 * A signed-out visit to a page is sent here with the page in `?to=`; a link to one post (`…#post-12`)
 * keeps its fragment through that redirect on this page's own address (browsers carry it over), not
 * in `to`, which the server never sees it in. It goes back onto `to`, so signing in lands on the post.
 */
const withFragment = (to: string | null, hash: string) => (to && hash && !to.includes('#') ? to + hash : to);

export function LoginPage() {
  const [params] = useSearchParams();
  const { hash } = useLocation();
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to pick up where you left off.">
      <LoginForm to={withFragment(params.get('to'), hash)} />
      <p className="mt-6 text-center text-muted">
        New to Backbeat?{' '}
        <button
          type="button"
          className="min-h-11 font-semibold text-accent-strong underline-offset-2 hover:underline"
          onClick={() => openModal(REGISTER_MODAL)}
        >
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
  const link = useResetLink(token);
  const [closedWhileOpen, setClosedWhileOpen] = useState<string | null>(null);
  // 404 (never sent) and 410 (used, expired, or ended by a password change) are verdicts on the link;
  // any other failure (the network, a rate limit) leaves the form, whose submission decides
  const verdict =
    link.error instanceof ApiError && (link.error.status === 404 || link.error.status === 410)
      ? link.error.message
      : null;
  const closed = closedWhileOpen ?? verdict;
  if (closed) return <ResetLinkClosed message={closed} />;
  return (
    <AuthCard title="Choose a new password" subtitle="Setting a new password signs you out everywhere else.">
      {link.isPending ? (
        <div className="flex min-h-40 items-center justify-center">
          <Spinner label="Checking your reset link" />
        </div>
      ) : (
        <ResetPasswordForm token={token} onLinkClosed={setClosedWhileOpen} />
      )}
    </AuthCard>
  );
}

/** A reset link that can no longer be used: why, and the way to a new one. */
function ResetLinkClosed({ message }: { message: string }) {
  return (
    <AuthCard title="This reset link cannot be used">
      <p role="alert" className="rounded-xl bg-warning-soft p-4 text-base font-medium">
        {message}
      </p>
      <p className="mt-4 text-muted">
        A reset link works once, for {LIMITS.passwordResetTtlMinutes} minutes, and stops working when your password
        changes. Ask for a new one and open the newest email.
      </p>
      <Link to="/password/forgot" className={`${buttonClass('primary', true)} mt-6`}>
        Email me a new link
      </Link>
      <p className="mt-4 text-center">
        <Link
          to="/login"
          className="inline-flex min-h-11 items-center font-semibold text-accent-strong underline-offset-2 hover:underline"
        >
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
