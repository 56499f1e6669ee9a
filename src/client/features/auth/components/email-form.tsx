import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Button } from '#client/components/ui/button.tsx';
import { useChangeEmail } from '../api/auth.ts';

const EMPTY = { email: '', email_confirmation: '', current_password: '' };

/**
 * A new sign-in address, typed twice, with the current password (docs/product/accounts.md). As with
 * the password form, focus moves to the confirmation after a change, which says where mail goes now.
 */
export function ChangeEmailForm({ current }: { current: string }) {
  const change = useChangeEmail();
  const feedback = useFormFeedback();
  const [form, setForm] = useState(EMPTY);
  const [done, setDone] = useState<string | null>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    feedback.edited(k);
  };
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (change.isPending) return;
    feedback.clear();
    setDone(null);
    try {
      const answer = await change.mutateAsync(form);
      setDone(
        `${answer.message} You sign in with ${answer.email} from now on, and a note about the change goes to your old address.`,
      );
      setForm(EMPTY);
    } catch (err) {
      feedback.fail(err);
    }
  }
  return (
    <form ref={feedback.formRef} onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <p className="text-muted">
        You sign in with <span className="font-semibold text-fg wrap-anywhere">{current}</span>.
      </p>
      {done ? (
        <p ref={doneRef} tabIndex={-1} role="status" className="rounded-lg bg-success-soft px-3 py-2 wrap-anywhere">
          {done}
        </p>
      ) : null}
      <Field
        label="New e-mail address"
        name="email"
        type="email"
        autoComplete="email"
        value={form.email}
        error={feedback.error('email')}
        onChange={set('email')}
      />
      <Field
        label="Confirm new e-mail address"
        name="email_confirmation"
        type="email"
        autoComplete="email"
        value={form.email_confirmation}
        error={feedback.error('email_confirmation')}
        onChange={set('email_confirmation')}
      />
      <Field
        label="Current password"
        name="current_password"
        type="password"
        autoComplete="current-password"
        value={form.current_password}
        error={feedback.error('current_password')}
        onChange={set('current_password')}
      />
      <FormError message={feedback.summary} />
      <div>
        <Button type="submit" disabled={change.isPending}>
          Change e-mail address
        </Button>
      </div>
    </form>
  );
}
