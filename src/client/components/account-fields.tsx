import { useState } from 'react';
import { Field } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';

/** What a checkout's "Create your account" step asks for. */
export interface AccountForm {
  name: string;
  email: string;
  email_confirmation: string;
  password: string;
}

/** A checkout's account form: its values, each field's setter (clearing that field's message) and its feedback. */
export function useAccountForm() {
  const [form, setForm] = useState<AccountForm>({ name: '', email: '', email_confirmation: '', password: '' });
  const feedback = useFormFeedback();
  const set = (k: keyof AccountForm) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    feedback.edited(k);
  };
  return { form, set, feedback };
}

/** The name, email twice (side by side from small screens up) and password of a checkout's new account. */
export function AccountFields({
  account: { form, set, feedback },
  nameLabel,
  required,
}: {
  account: ReturnType<typeof useAccountForm>;
  nameLabel: string;
  required?: boolean;
}) {
  return (
    <>
      <Field
        label={nameLabel}
        name="name"
        autoComplete="name"
        value={form.name}
        error={feedback.error('name')}
        onChange={set('name')}
        required={required}
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
          required={required}
        />
        <Field
          label="Confirm email"
          name="email_confirmation"
          type="email"
          autoComplete="email"
          value={form.email_confirmation}
          error={feedback.error('email_confirmation')}
          onChange={set('email_confirmation')}
          required={required}
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
        required={required}
      />
    </>
  );
}
