import { UNSUBSCRIBE_MESSAGES } from '#shared/mail';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ApiError, errorMessage } from '#client/lib/api.ts';
import { useUnsubscribe, useUnsubscribeInfo } from '../api/mail.ts';

/**
 * The page an e-mail's unsubscribe link opens: it says what it turns off and for which address, and
 * turns it off with one button (opening the page changes nothing: mail scanners open links too).
 */
export function Unsubscribe({ token }: { token: string }) {
  const info = useUnsubscribeInfo(token);
  const unsubscribe = useUnsubscribe(token);
  if (info.isPending) return <Spinner label="Checking your link" />;
  if (info.isError)
    return (
      <p role="alert" className="text-lg">
        {info.error instanceof ApiError && info.error.status === 404
          ? UNSUBSCRIBE_MESSAGES.invalid
          : errorMessage(info.error, [])}{' '}
        <a href="/account/notifications" className="font-semibold text-accent-strong underline">
          Notification settings
        </a>
      </p>
    );
  const { label, email, subscribed } = info.data;
  if (!subscribed || unsubscribe.isSuccess)
    return (
      <div role="status" className="grid gap-3">
        <p className="text-xl font-bold">{UNSUBSCRIBE_MESSAGES.done}</p>
        <p className="text-lg break-words">
          We no longer send “{label}” e-mails to {email}. Account and billing e-mails still arrive: they cannot be
          turned off.
        </p>
        <p>
          <a href="/account/notifications" className="font-semibold text-accent-strong underline">
            Change your notification settings
          </a>
        </p>
      </div>
    );
  return (
    <div className="grid gap-4">
      <p className="text-lg break-words">
        Stop sending “{label}” e-mails to <strong>{email}</strong>?
      </p>
      {unsubscribe.isError ? <p role="alert">{errorMessage(unsubscribe.error, [])}</p> : null}
      <div>
        <Button onClick={() => unsubscribe.mutate()} disabled={unsubscribe.isPending}>
          {unsubscribe.isPending ? <Spinner label="Unsubscribing" className="[&_svg]:text-accent-fg" /> : 'Unsubscribe'}
        </Button>
      </div>
    </div>
  );
}
