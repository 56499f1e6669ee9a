import { useState, type FormEvent } from 'react';
import { MESSAGES } from '#shared/constants';
import { ApiError } from '#client/lib/api.ts';
import { Modal } from '#client/components/ui/modal.tsx';
import { FormError, Field } from '#client/components/ui/field.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { navigate, useRegister } from '../api/auth.ts';
import { REGISTER_MODAL } from '../register.ts';

export { REGISTER_MODAL };

/** where "Sign in" returns to when the screen was given no address (/login?to=, default /order: docs/product/accounts.md) */
const DEFAULT_SIGN_IN_TARGET = '/order';

/**
 * "Create Your Account": no client checks; the first server error among name, email and
 * password is shown in red, else the fallback message; on success the browser goes to `redirectTo`.
 */
export function RegisterModal({ redirectTo }: { redirectTo?: string }) {
  const register = useRegister();
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState({ name: '', email: '', email_confirmation: '', password: '' });
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (register.isPending) return;
    setError(null);
    try {
      const res = await register.mutateAsync({ ...form, ...(redirectTo ? { redirect: redirectTo } : {}) });
      navigate.within(redirectTo ?? res.redirect);
    } catch (err) {
      const first = err instanceof ApiError ? err.firstError(['name', 'email', 'password', 'email_confirmation']) : undefined;
      setError(first ?? MESSAGES.registrationFallback);
    }
  }

  return (
    <Modal name={REGISTER_MODAL} title="Create Your Account" description="Lessons, practice tools and a community of drummers.">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <Field label="Name" name="name" autoComplete="name" value={form.name} onChange={set('name')} />
        <Field label="Email" name="email" type="email" autoComplete="email" value={form.email} onChange={set('email')} />
        <Field label="Confirm Email" name="email_confirmation" type="email" autoComplete="email" value={form.email_confirmation} onChange={set('email_confirmation')} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" value={form.password} onChange={set('password')} />
        <FormError message={error} inline />
        {register.isPending ? (
          <div className="grid min-h-11 place-items-center">
            <Spinner label="Creating your account" />
          </div>
        ) : (
          <Button type="submit" full>
            Create Account
          </Button>
        )}
        <p className="text-center text-sm text-muted">
          Already a member?{' '}
          <a className="font-semibold text-accent-strong underline-offset-2 hover:underline" href={`/login?to=${encodeURIComponent(redirectTo ?? DEFAULT_SIGN_IN_TARGET)}`}>
            Sign in
          </a>
        </p>
      </form>
    </Modal>
  );
}
