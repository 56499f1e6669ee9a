import { useState, type FormEvent } from 'react';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { registerAndSignIn } from '#client/lib/register.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FormError } from '#client/components/ui/field.tsx';
import { AccountFields, useAccountForm } from '#client/components/account-fields.tsx';
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
  const newAccount = useAccountForm();
  const { form, feedback } = newAccount;
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
        <AccountFields account={newAccount} nameLabel="Name" required />
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
