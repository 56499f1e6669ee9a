import { useState, type FormEvent } from 'react';
import { errorMessage } from '#client/lib/api.ts';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { navigate, useLogin } from '../api/auth.ts';

/** Sign-in: the server decides where to go (`to` when it is a same-site path, else the dashboard). */
export function LoginForm({ to }: { to: string | null }) {
  const login = useLogin();
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (login.isPending) return;
    setError(null);
    try {
      const res = await login.mutateAsync({ email, password, remember, ...(to ? { to } : {}) });
      navigate.within(res.redirect);
    } catch (err) {
      setError(errorMessage(err, ['email', 'password']));
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={error} />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
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
    </form>
  );
}
