import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '#client/lib/api.ts';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Button } from '#client/components/ui/button.tsx';
import { navigate, useChangePassword, useForgotPassword, useResetPassword } from '../api/auth.ts';

/** Errors are shown the way every form shows them (components/ui/form-feedback.ts). */
export function ForgotPasswordForm() {
  const forgot = useForgotPassword();
  const feedback = useFormFeedback();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (forgot.isPending) return;
    feedback.clear();
    try {
      setSent((await forgot.mutateAsync({ email })).message);
    } catch (err) {
      feedback.fail(err);
    }
  }
  if (sent)
    return (
      <p role="status" className="rounded-xl bg-success-soft p-4 text-base">
        {sent}
      </p>
    );
  return (
    <form ref={feedback.formRef} onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        error={feedback.error('email')}
        onChange={(e) => {
          setEmail(e.target.value);
          feedback.edited('email');
        }}
      />
      <FormError message={feedback.summary} />
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
  const feedback = useFormFeedback();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (reset.isPending) return;
    feedback.clear();
    try {
      const res = await reset.mutateAsync({ token, password, password_confirmation: confirmation });
      navigate.within(res.redirect);
    } catch (err) {
      const link = err instanceof ApiError ? err.firstError(['token']) : undefined;
      if (link && onLinkClosed) onLinkClosed(link);
      // a closed link is about no field: its sentence is the form's own
      else feedback.fail(err, link);
    }
  }
  return (
    <form ref={feedback.formRef} onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        error={feedback.error('password')}
        onChange={(e) => {
          setPassword(e.target.value);
          feedback.edited('password');
        }}
        hint="At least 8 characters."
      />
      <Field
        label="Confirm new password"
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        value={confirmation}
        error={feedback.error('password_confirmation')}
        onChange={(e) => {
          setConfirmation(e.target.value);
          feedback.edited('password_confirmation');
        }}
      />
      <FormError message={feedback.summary} />
      <Button type="submit" full disabled={reset.isPending}>
        Set new password
      </Button>
    </form>
  );
}

/** After a change focus moves to the confirmation, which says what else happened. */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const feedback = useFormFeedback();
  const [form, setForm] = useState({ current_password: '', password: '', password_confirmation: '' });
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
      setDone(
        `${(await change.mutateAsync(form)).message} Other devices have been signed out, and any reset link we emailed you no longer works.`,
      );
      setForm({ current_password: '', password: '', password_confirmation: '' });
    } catch (err) {
      feedback.fail(err);
    }
  }
  return (
    <form ref={feedback.formRef} onSubmit={submit} className="flex flex-col gap-4" noValidate>
      {done ? (
        <p ref={doneRef} tabIndex={-1} role="status" className="rounded-lg bg-success-soft px-3 py-2">
          {done}
        </p>
      ) : null}
      <Field
        label="Current password"
        name="current_password"
        type="password"
        autoComplete="current-password"
        value={form.current_password}
        error={feedback.error('current_password')}
        onChange={set('current_password')}
      />
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={form.password}
        error={feedback.error('password')}
        onChange={set('password')}
      />
      <Field
        label="Confirm new password"
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        value={form.password_confirmation}
        error={feedback.error('password_confirmation')}
        onChange={set('password_confirmation')}
      />
      <FormError message={feedback.summary} />
      <div>
        <Button type="submit" disabled={change.isPending}>
          Change password
        </Button>
      </div>
    </form>
  );
}
