import { useEffect, useId, useState } from 'react';
import { ESSENTIAL_MAIL_NOTE, type NotificationSettingsResponse } from '#shared/mail';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { errorMessage } from '#client/lib/api.ts';
import { useNotificationSettings, useSaveNotificationSetting } from '../api/mail.ts';

type Setting = NotificationSettingsResponse['settings'][number];

function Toggle(props: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  describedBy?: string;
  onChange?: (checked: boolean) => void;
}) {
  return (
    <label
      className={`flex min-h-11 items-center gap-2 text-base ${props.disabled ? 'cursor-not-allowed text-muted' : 'cursor-pointer'}`}
    >
      <input
        type="checkbox"
        className="size-5 accent-[var(--accent)]"
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={props.describedBy}
        onChange={(e) => props.onChange?.(e.target.checked)}
      />
      {props.label}
    </label>
  );
}

function Row({ setting, noteId }: { setting: Setting; noteId: string }) {
  const save = useSaveNotificationSetting();
  // The boxes take a click at once, within the click's own event: held to the saved settings alone, a
  // controlled box springs back until the save's answer arrives. A refused save puts them back.
  const [shown, setShown] = useState({ in_app: setting.in_app, email: setting.email });
  useEffect(() => setShown({ in_app: setting.in_app, email: setting.email }), [setting.in_app, setting.email]);
  const change = (next: { in_app?: boolean; email?: boolean }) => {
    const wanted = { in_app: next.in_app ?? shown.in_app, email: next.email ?? shown.email };
    setShown(wanted);
    save.mutate(
      { topic: setting.topic, ...wanted },
      {
        onSuccess: () => toast('Your notification settings are saved.'),
        onError: (err) => {
          setShown({ in_app: setting.in_app, email: setting.email });
          toast(errorMessage(err, ['settings']), 'danger');
        },
      },
    );
  };
  return (
    <li className="flex flex-col gap-2 py-4 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
      <div className="min-w-0">
        <p className="font-semibold break-words">{setting.label}</p>
        <p className="text-muted break-words">{setting.description}</p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-x-6" role="group" aria-label={setting.label}>
        {setting.has_in_app ? (
          <Toggle
            label="In the bell"
            checked={shown.in_app}
            disabled={setting.essential || save.isPending}
            describedBy={setting.essential ? noteId : undefined}
            onChange={(v) => change({ in_app: v })}
          />
        ) : null}
        <Toggle
          label="By e-mail"
          checked={shown.email}
          disabled={setting.essential || save.isPending}
          describedBy={setting.essential ? noteId : undefined}
          onChange={(v) => change({ email: v })}
        />
      </div>
    </li>
  );
}

/** The notification settings (docs/mail.md): per topic, in the bell and by e-mail; essential topics stay on. */
export function NotificationSettings() {
  const noteId = useId();
  const settings = useNotificationSettings();
  if (settings.isPending) return <Spinner label="Loading your notification settings" />;
  if (settings.isError) return <p role="alert">{errorMessage(settings.error, [])}</p>;
  const essential = settings.data.settings.filter((s) => s.essential);
  const optional = settings.data.settings.filter((s) => !s.essential);
  return (
    <div className="grid gap-6">
      <section aria-labelledby={`${noteId}-always`} className="rounded-2xl border border-line bg-surface p-5 sm:p-6">
        <h2 id={`${noteId}-always`} className="text-xl font-bold">
          Always sent
        </h2>
        <p id={noteId} className="mt-2 text-muted">
          {ESSENTIAL_MAIL_NOTE}
        </p>
        <ul className="divide-y divide-line">
          {essential.map((s) => (
            <Row key={s.topic} setting={s} noteId={noteId} />
          ))}
        </ul>
      </section>
      <section aria-labelledby={`${noteId}-choose`} className="rounded-2xl border border-line bg-surface p-5 sm:p-6">
        <h2 id={`${noteId}-choose`} className="text-xl font-bold">
          Your choice
        </h2>
        <p className="mt-2 text-muted">
          Each change is saved at once. Every one of these e-mails also has an unsubscribe link at the bottom.
        </p>
        <ul className="divide-y divide-line">
          {optional.map((s) => (
            <Row key={s.topic} setting={s} noteId={noteId} />
          ))}
        </ul>
      </section>
    </div>
  );
}
