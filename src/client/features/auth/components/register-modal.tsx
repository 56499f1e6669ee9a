import { useEffect, useRef, useState, type FormEvent } from 'react';
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

/** the form's fields in the order they are shown: the first wrong one gets focus */
const FIELDS = ['name', 'email', 'email_confirmation', 'password'] as const;
type FieldName = (typeof FIELDS)[number];
const LABELS: Record<FieldName, string> = {
  name: 'Name',
  email: 'Email',
  email_confirmation: 'Confirm Email',
  password: 'Password',
};
/** the announced summary: which fields to correct (each one's own message is under it) */
const correctThese = (fields: FieldName[]) =>
  `Please correct ${fields.length === 1 ? 'this field' : `these ${fields.length} fields`}: ${fields.map((f) => LABELS[f]).join(', ')}.`;

/**
 * "Create Your Account": no client checks; the server's errors are shown in red, each under
 * its own field (aria-invalid, aria-describedby), else the fallback message; on success the browser
 * goes to `redirectTo`. As every form (docs/product/accessibility.md): a summary of the fields to
 * correct is announced and focus moves to the first wrong field.
 */
export function RegisterModal({ redirectTo }: { redirectTo?: string }) {
  const register = useRegister();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [form, setForm] = useState({ name: '', email: '', email_confirmation: '', password: '' });
  const set = (k: FieldName) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    // an edited field is no longer marked wrong; the summary stays until the next try
    setFieldErrors((errs) => (errs[k] ? { ...errs, [k]: undefined } : errs));
  };
  const formRef = useRef<HTMLFormElement>(null);
  // where focus goes once the answer is shown (the submit button was replaced by a spinner meanwhile)
  const focusNext = useRef<FieldName | 'submit' | null>(null);
  useEffect(() => {
    if (register.isPending || !focusNext.current) return;
    const target =
      focusNext.current === 'submit'
        ? formRef.current?.querySelector<HTMLElement>('button[type="submit"]')
        : formRef.current?.elements.namedItem(focusNext.current);
    focusNext.current = null;
    if (target instanceof HTMLElement) target.focus();
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (register.isPending) return;
    setError(null);
    try {
      const res = await register.mutateAsync({ ...form, ...(redirectTo ? { redirect: redirectTo } : {}) });
      navigate.within(redirectTo ?? res.redirect);
    } catch (err) {
      const found: Partial<Record<FieldName, string>> = {};
      for (const f of FIELDS) {
        const message = err instanceof ApiError ? err.errors?.[f]?.[0] : undefined;
        if (message) found[f] = message;
      }
      const wrong = FIELDS.filter((f) => found[f]);
      setFieldErrors(found);
      setError(wrong.length ? correctThese(wrong) : MESSAGES.registrationFallback);
      focusNext.current = FIELDS.find((f) => found[f]) ?? 'submit';
    }
  }

  return (
    <Modal
      name={REGISTER_MODAL}
      title="Create Your Account"
      description="Lessons, practice tools and a community of drummers."
    >
      <form ref={formRef} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <Field
          label="Name"
          name="name"
          autoComplete="name"
          value={form.name}
          error={fieldErrors.name}
          onChange={set('name')}
        />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={form.email}
          error={fieldErrors.email}
          onChange={set('email')}
        />
        <Field
          label="Confirm Email"
          name="email_confirmation"
          type="email"
          autoComplete="email"
          value={form.email_confirmation}
          error={fieldErrors.email_confirmation}
          onChange={set('email_confirmation')}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          error={fieldErrors.password}
          onChange={set('password')}
        />
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
