import { useState, type FormEvent } from 'react';
import { MESSAGES } from '#shared/constants';
import { focusHeadingOnNextPage } from '#client/lib/heading-focus.ts';
import { Modal } from '#client/components/ui/modal.tsx';
import { FormError, Field } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { navigate, useRegister } from '../api/auth.ts';
import { REGISTER_MODAL } from '../register.ts';

export { REGISTER_MODAL };

/** where "Sign in" returns to when the screen was given no address (/login?to=, default /order: docs/product/accounts.md) */
const DEFAULT_SIGN_IN_TARGET = '/order';

type FieldName = 'name' | 'email' | 'email_confirmation' | 'password';

/**
 * "Create Your Account": no client checks; the server's errors are shown the way every form shows
 * them (components/ui/form-feedback.ts): each under its own field, a summary of the fields to correct
 * announced, focus on the first wrong field; without a field error, the fallback message. On success
 * the browser goes to `redirectTo`.
 */
export function RegisterModal({ redirectTo }: { redirectTo?: string }) {
  const register = useRegister();
  const feedback = useFormFeedback();
  const [form, setForm] = useState({ name: '', email: '', email_confirmation: '', password: '' });
  const set = (k: FieldName) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    feedback.edited(k);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (register.isPending) return;
    feedback.clear();
    try {
      const res = await register.mutateAsync({ ...form, ...(redirectTo ? { redirect: redirectTo } : {}) });
      focusHeadingOnNextPage();
      navigate.within(redirectTo ?? res.redirect);
    } catch (err) {
      feedback.fail(err, MESSAGES.registrationFallback);
    }
  }

  return (
    <Modal
      name={REGISTER_MODAL}
      title="Create Your Account"
      description="Lessons, practice tools and a community of drummers."
    >
      <form ref={feedback.formRef} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <Field
          label="Name"
          name="name"
          autoComplete="name"
          value={form.name}
          error={feedback.error('name')}
          onChange={set('name')}
        />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={form.email}
          error={feedback.error('email')}
          onChange={set('email')}
        />
        <Field
          label="Confirm Email"
          name="email_confirmation"
          type="email"
          autoComplete="email"
          value={form.email_confirmation}
          error={feedback.error('email_confirmation')}
          onChange={set('email_confirmation')}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          error={feedback.error('password')}
          onChange={set('password')}
        />
        <FormError message={feedback.summary} inline />
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
          <a
            className="font-semibold text-accent-strong underline-offset-2 hover:underline"
            href={`/login?to=${encodeURIComponent(redirectTo ?? DEFAULT_SIGN_IN_TARGET)}`}
          >
            Sign in
          </a>
        </p>
      </form>
    </Modal>
  );
}
