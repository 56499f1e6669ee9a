import { useRef, useState, type FormEvent } from 'react';
import { MENTORSHIP_MESSAGES as M } from '#shared/mentorship-checkout';
import { ApiError } from '#client/lib/api.ts';
import { FormError } from '#client/components/ui/field.tsx';
import { AccountFields, useAccountForm } from '#client/components/account-fields.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { registerStudent } from '../api.ts';
import { CREATE_STEP_TITLE, StepHeader, type Buyer } from './account-steps.tsx';

/** a failed registration's own message when no field is wrong: the rate limit's sentence, else the general one */
const registrationFailed = (err: unknown) =>
  err instanceof ApiError && err.status === 429 ? err.message : M.registrationFailed;

/**
 * Step 1's "create" form: a new student's account (registration with mentorship_signup). Loaded when the
 * visitor chooses "Create account", so that its fields are no part of the checkout page's first JavaScript.
 */
export function CreateAccount({ onBack, onCreated }: { onBack: () => void; onCreated: (b: Buyer) => void }) {
  const account = useAccountForm();
  const { form, feedback } = account;
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    feedback.clear();
    try {
      const user = await registerStudent({
        name: form.name.trim(),
        email: form.email.trim(),
        email_confirmation: form.email_confirmation.trim(),
        password: form.password,
      });
      onCreated({ name: user.name, email: user.email });
    } catch (err) {
      feedback.fail(err, registrationFailed(err));
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }

  return (
    <form
      ref={feedback.formRef}
      onSubmit={submit}
      noValidate
      aria-busy={loading}
      className="flex flex-col gap-4"
      id="mentorship-account-form"
    >
      <StepHeader step={1} title={CREATE_STEP_TITLE} focus />
      <AccountFields account={account} nameLabel="Your name" />
      <FormError message={feedback.summary} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Button variant="ghost" onClick={onBack} disabled={loading}>
          Back
        </Button>
        <Button type="submit" disabled={loading} className="min-h-12 sm:min-w-64">
          {loading ? <Spinner label="Creating your account" className="[&_svg]:text-accent-fg" /> : null}
          Create account and continue
        </Button>
      </div>
    </form>
  );
}
