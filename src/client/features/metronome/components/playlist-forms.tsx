import { useId, useState } from 'react';
import { Check, X } from 'lucide-react';
import clsx from 'clsx';
import { PLAYLIST, settingsPart, SOUND_SET_NAMES, type MetronomeSettings, type PlaylistEntry } from '#shared/metronome';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FieldMessage, FormError, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { closeModal, Modal } from '#client/components/ui/modal.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { errorMessage } from '#client/lib/api.ts';
import { isolateText } from '#shared/display-text';
import { PLAYLIST_FAILED, saveSettings, updateSettings } from '../api/playlist.ts';

/*
 * The playlist's two forms: loaded when a member first saves or renames (their fields, feedback and
 * modal are no part of the metronome page's first JavaScript: src/client/features/metronome/components/playlist.tsx).
 */

/**
 * Renaming one saved setting in its row. The form stays open until the name is saved; what is wrong
 * is shown as every form shows it (components/ui/form-feedback.ts), under the name; a saved name is
 * said by the toast and the form gives way to the row (its Rename button takes focus).
 */
export function RenameForm({ entry, onDone }: { entry: PlaylistEntry; onDone: () => void }) {
  const id = useId();
  // the label keeps the name the member started from while the list shows the new one
  const [from] = useState(entry.name);
  const [name, setName] = useState(entry.name);
  const [busy, setBusy] = useState(false);
  const feedback = useFormFeedback();
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const next = name.trim();
    if (!next) return feedback.show({ name: PLAYLIST.nameRequired }, null);
    feedback.clear();
    setBusy(true);
    try {
      await updateSettings(entry.id, { name: next });
      toast(`Renamed to “${isolateText(next)}”.`);
      onDone();
    } catch (err) {
      // the settings are not a field of this form: their message is the form's own
      feedback.fail(err, errorMessage(err, ['settings'], PLAYLIST_FAILED));
      setBusy(false);
    }
  };
  return (
    <form
      ref={feedback.formRef}
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={`Rename ${from}`}
      className="flex min-w-0 flex-1 flex-col gap-1 py-1"
    >
      <div className="flex items-center gap-1">
        <input
          aria-label={`New name for ${from}`}
          className={clsx(inputClass, 'min-h-11')}
          value={name}
          maxLength={PLAYLIST.nameMax}
          autoFocus
          {...invalidProps(feedback.errors.name, `${id}-err`)}
          onChange={(ev) => {
            setName(ev.target.value);
            feedback.edited('name');
          }}
          onKeyDown={(ev) => ev.key === 'Escape' && onDone()}
        />
        <button
          type="submit"
          aria-label="Save name"
          aria-disabled={busy || undefined}
          className="grid size-11 shrink-0 place-items-center rounded-lg text-success hover:bg-surface-2"
        >
          <Check aria-hidden className="size-5" />
        </button>
        <button
          type="button"
          aria-label="Cancel renaming"
          onClick={onDone}
          className="grid size-11 shrink-0 place-items-center rounded-lg text-muted hover:bg-surface-2"
        >
          <X aria-hidden className="size-5" />
        </button>
      </div>
      <FieldMessage id={`${id}-err`} message={feedback.errors.name} />
      <FormError message={feedback.summary} inline />
    </form>
  );
}

/** Saving under a name; what is wrong is shown as every form shows it (components/ui/form-feedback.ts). */
export function SaveModal({ current }: { current: MetronomeSettings }) {
  const [name, setName] = useState('');
  const [fav, setFav] = useState(false);
  const feedback = useFormFeedback();
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return feedback.show({ name: PLAYLIST.nameRequired }, null);
    setBusy(true);
    feedback.clear();
    try {
      await saveSettings({ name: name.trim(), fav, settings: settingsPart(current) });
      toast('Settings saved.');
      setName('');
      setFav(false);
      closeModal('metronome-save');
    } catch (err) {
      // the settings are not a field of this form: their message is the form's own
      feedback.fail(err, errorMessage(err, ['settings'], PLAYLIST_FAILED));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      name="metronome-save"
      title="Save settings"
      description={`${current.bpm} bpm · ${current.beats}/${current.note} · ${SOUND_SET_NAMES[current.soundSet]}`}
    >
      <form ref={feedback.formRef} onSubmit={submit} noValidate className="flex flex-col gap-4">
        <Field
          label="Name"
          name="name"
          value={name}
          maxLength={PLAYLIST.nameMax}
          placeholder="e.g. Paradiddle warm-up"
          error={feedback.error('name')}
          onChange={(e) => {
            setName(e.target.value);
            feedback.edited('name');
          }}
        />
        <label className="flex min-h-11 items-center gap-3 text-base">
          <input
            type="checkbox"
            className="size-5 accent-[var(--accent)]"
            checked={fav}
            onChange={(e) => setFav(e.target.checked)}
          />{' '}
          Mark as favourite
        </label>
        <Button type="submit" disabled={busy}>
          Save
        </Button>
        <FormError message={feedback.summary} inline />
      </form>
    </Modal>
  );
}
