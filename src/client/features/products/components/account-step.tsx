import { useState, type FormEvent } from 'react';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { registerAndSignIn } from '#client/lib/register.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { StepHeading } from './step-heading.tsx';

/** Step 1: who is signed in, or the account to create (with a link to sign in and come back). */
export function AccountStep({
  account,
  onRegistered,
  checkoutUrl,
  signupFlag,
}: {
  account: { name: string; email: string } | null;
  onRegistered: (a: { name: string; email: string }) => void;
  checkoutUrl: string;
  signupFlag: 'dkm_signup' | null;
}) {
  const [form, setForm] = useState({ name: '', email: '', email_confirmation: '', password: '' });
  const feedback = useFormFeedback();
  const [loading, setLoading] = useState(false);
  const loginUrl = `/login?to=${encodeURIComponent(checkoutUrl)}`;

  if (account) {
    return (
      <section className="rounded-2xl border border-line bg-surface p-5 sm:p-6" aria-labelledby="account-step">
        <div id="account-step">
          <StepHeading n={1} title="Your account" done />
        </div>
        <p className="mt-3 text-base text-muted">
          Signed in as <span className="font-semibold text-fg">{account.name}</span> ({account.email})
        </p>
      </section>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (loading) return;
    feedback.clear();
    setLoading(true);
    try {
      const res = await registerAndSignIn<{ name: string; email: string }>({
        ...form,
        ...(signupFlag ? { [signupFlag]: true } : {}),
      });
      onRegistered({ name: res.name, email: res.email });
    } catch (err) {
      // each field's message under it (components/ui/form-feedback.ts), else the general message
      feedback.fail(err, COMMERCE_MESSAGES.registrationFailed);
    } finally {
      setLoading(false);
    }
  };
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    feedback.edited(k);
  };

  return (
    <section className="rounded-2xl border border-line bg-surface p-5 sm:p-6" aria-labelledby="account-step">
      <div id="account-step">
        <StepHeading n={1} title="Create your account" />
      </div>
      <p className="mt-2 text-base text-muted">
        Already have an account?{' '}
        <a href={loginUrl} className="font-semibold text-accent-strong underline underline-offset-2">
          Sign in
        </a>
      </p>
      <form ref={feedback.formRef} className="mt-5 flex flex-col gap-4" onSubmit={submit} noValidate>
        <Field
          label="Name"
          name="name"
          autoComplete="name"
          value={form.name}
          error={feedback.error('name')}
          onChange={set('name')}
          required
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={form.email}
            error={feedback.error('email')}
            onChange={set('email')}
            required
          />
          <Field
            label="Confirm email"
            name="email_confirmation"
            type="email"
            autoComplete="email"
            value={form.email_confirmation}
            error={feedback.error('email_confirmation')}
            onChange={set('email_confirmation')}
            required
          />
        </div>
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          value={form.password}
          error={feedback.error('password')}
          onChange={set('password')}
          required
        />
        <FormError message={feedback.summary} />
        <Button type="submit" full disabled={loading} aria-busy={loading || undefined} className="min-h-12">
          {loading ? 'Creating your account…' : 'Create account and continue'}
        </Button>
      </form>
    </section>
  );
}

/** Step 2 before there is an account: nothing to pay with yet. */
export function LockedPayment() {
  return (
    <section className="rounded-2xl border border-dashed border-line bg-surface p-5 text-muted sm:p-6">
      <StepHeading n={2} title="Payment" />
      <p className="mt-2 text-base">Create your account (or sign in) to pay.</p>
    </section>
  );
}
