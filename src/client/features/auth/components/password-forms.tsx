import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '#client/lib/api.ts';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { navigate, useChangePassword, useForgotPassword, useResetPassword } from '../api/auth.ts';

export function ForgotPasswordForm() {
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      setSent((await forgot.mutateAsync({ email })).message);
    } catch (err) {
      setError(errorMessage(err, ['email']));
    }
  }
  if (sent)
    return (
      <p role="status" className="rounded-xl bg-success-soft p-4 text-base">
        {sent}
      </p>
    );
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={error} />
      <Field label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <Button type="submit" full disabled={forgot.isPending}>
        Email me a reset link
      </Button>
    </form>
  );
}

/** The new-password form; `onLinkClosed` hears the server's sentence when the link stopped working while the form was open. */
export function ResetPasswordForm({
  token,
  onLinkClosed,
}: {
  token: string;
  onLinkClosed?: (message: string) => void;
}) {
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const res = await reset.mutateAsync({ token, password, password_confirmation: confirmation });
      navigate.within(res.redirect);
    } catch (err) {
      const link = err instanceof ApiError ? err.firstError(['token']) : undefined;
      if (link && onLinkClosed) onLinkClosed(link);
      else setError(errorMessage(err, ['token', 'password', 'password_confirmation']));
    }
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={error} />
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        hint="At least 8 characters."
      />
      <Field
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={(e) => setConfirmation(e.target.value)}
      />
      <Button type="submit" full disabled={reset.isPending}>
        Set new password
      </Button>
    </form>
  );
}

export function ChangePasswordForm() {
  const change = useChangePassword();
  const [form, setForm] = useState({ current_password: '', password: '', password_confirmation: '' });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setDone(null);
    try {
      setDone(
        `${(await change.mutateAsync(form)).message} Other devices have been signed out, and any reset link we emailed you no longer works.`,
      );
      setForm({ current_password: '', password: '', password_confirmation: '' });
    } catch (err) {
      setError(errorMessage(err, ['current_password', 'password', 'password_confirmation']));
    }
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={error} />
      {done ? (
        <p role="status" className="rounded-lg bg-success-soft px-3 py-2">
          {done}
        </p>
      ) : null}
      <Field
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={form.current_password}
        onChange={set('current_password')}
      />
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        value={form.password}
        onChange={set('password')}
      />
      <Field
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        value={form.password_confirmation}
        onChange={set('password_confirmation')}
      />
      <div>
        <Button type="submit" disabled={change.isPending}>
          Change password
        </Button>
      </div>
    </form>
  );
}
