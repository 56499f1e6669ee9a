import { useState, type FormEvent } from 'react';
import { focusHeadingOnNextPage } from '#client/lib/heading-focus.ts';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { navigate, useLogin } from '../api/auth.ts';

/**
 * Sign-in: the server decides where to go (`to` when it is a same-site path, else the dashboard), and
 * that page starts with focus on its heading. Wrong details are shown as every form shows them
 * (components/ui/form-feedback.ts).
 */
export function LoginForm({ to }: { to: string | null }) {
  const login = useLogin();
  const feedback = useFormFeedback();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (login.isPending) return;
    feedback.clear();
    try {
      const res = await login.mutateAsync({ email, password, remember, ...(to ? { to } : {}) });
      focusHeadingOnNextPage();
      navigate.within(res.redirect);
    } catch (err) {
      feedback.fail(err);
    }
  }

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
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        error={feedback.error('password')}
        onChange={(e) => {
          setPassword(e.target.value);
          feedback.edited('password');
        }}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label className="flex min-h-11 cursor-pointer items-center gap-2 text-base">
          <input
            type="checkbox"
            className="size-5 accent-[var(--accent)]"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
          />
          Remember me
        </label>
        <a href="/password/forgot" className="font-semibold text-accent-strong underline-offset-2 hover:underline">
          Forgot your password?
        </a>
      </div>
      <Button type="submit" full disabled={login.isPending}>
        {login.isPending ? <Spinner label="Signing in" className="[&_svg]:text-accent-fg" /> : 'Sign in'}
      </Button>
      <FormError message={feedback.summary} />
    </form>
  );
}
