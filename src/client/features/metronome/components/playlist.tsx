import { useEffect, useId, useRef, useState } from 'react';
import { Check, ListMusic, Pencil, Plus, Star, Trash2, X } from 'lucide-react';
import clsx from 'clsx';
import {
  PLAYLIST,
  settingsPart,
  SOUND_SET_NAMES,
  SUBDIVISION_LABELS,
  type MetronomeSettings,
  type PlaylistEntry,
} from '#shared/metronome';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Field, FieldMessage, FormError, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { closeModal, Modal, openModal } from '#client/components/ui/modal.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { errorMessage } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { removeSettings, saveSettings, updateSettings, usePlaylist } from '../api/playlist.ts';
import { isolateText } from '#shared/display-text';

const describe = (e: PlaylistEntry) =>
  [`${e.bpm} bpm`, `${e.beats}/${e.note}`, e.subdiv ? SUBDIVISION_LABELS[e.subdiv] : null, SOUND_SET_NAMES[e.soundSet]]
    .filter(Boolean)
    .join(' · ');

const FAILED = 'That did not work. Please try again.';
const messageOf = (err: unknown) => errorMessage(err, ['name', 'settings'], FAILED);

/**
 * The playlist of saved settings (docs/product/metronome.md): save under a name, favourite, load,
 * rename, delete. A signed-in member's list syncs through /api/metronome_settings/.
 */
export function Playlist({ current, onLoad }: { current: MetronomeSettings; onLoad: (entry: PlaylistEntry) => void }) {
  const entries = usePlaylist();
  const update = (id: number, change: { name?: string; fav?: boolean }) =>
    updateSettings(id, change).catch((err: unknown) => toast(messageOf(err), 'danger'));
  const [confirm, confirmDialog] = useConfirm();
  const [editing, setEditing] = useState<number | null>(null);
  // the row whose rename form closed: focus goes back to its Rename button
  const list = useRef<HTMLUListElement>(null);
  const closed = useRef<number | null>(null);
  useEffect(() => {
    if (editing !== null || closed.current === null) return;
    list.current?.querySelector<HTMLElement>(`[data-rename="${closed.current}"]`)?.focus();
    closed.current = null;
  }, [editing]);
  const stopEditing = (id: number) => {
    closed.current = id;
    setEditing(null);
  };

  return (
    <section aria-labelledby="playlist-title" className="rounded-2xl border border-line bg-surface p-4 sm:p-5">
      {confirmDialog}
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="playlist-title" className="flex items-center gap-2 text-lg font-bold">
          <ListMusic aria-hidden className="size-5 text-accent" /> Saved settings
        </h2>
        <Button variant="secondary" onClick={() => openModal('metronome-save')}>
          <Plus aria-hidden className="size-5" /> Save current settings
        </Button>
      </div>
      {entries?.length === 0 ? (
        <p className="text-muted">
          Save a tempo and meter you come back to (a warm-up, a song, a speed-training plan) and load it with one tap.
          {pageConfig().authId ? '' : ' Sign in to keep your list on every device.'}
        </p>
      ) : null}
      <ul ref={list} className="flex flex-col divide-y divide-line">
        {entries?.map((e) => (
          <li key={e.id} className="flex min-h-14 items-center gap-1 py-1">
            <button
              type="button"
              aria-pressed={e.fav}
              aria-label={`Favourite ${e.name}`}
              onClick={() => void update(e.id, { fav: !e.fav })}
              className="grid size-11 shrink-0 place-items-center rounded-lg hover:bg-surface-2"
            >
              <Star aria-hidden className={clsx('size-5', e.fav ? 'fill-accent text-accent' : 'text-muted')} />
            </button>
            {editing === e.id ? (
              <RenameForm entry={e} onDone={() => stopEditing(e.id)} />
            ) : (
              <>
                <button
                  type="button"
                  onClick={() => onLoad(e)}
                  // the visible name and settings, led by the action (WCAG 2.5.3: the name holds the visible text)
                  aria-label={`Load ${e.name} ${describe(e)}`}
                  className="min-w-0 flex-1 rounded-lg px-2 py-1.5 text-left hover:bg-surface-2"
                >
                  <span className="block truncate font-semibold" title={e.name}>
                    {e.name}
                  </span>{' '}
                  <span className="block text-sm text-muted">{describe(e)}</span>
                </button>
                <button
                  type="button"
                  aria-label={`Rename ${e.name}`}
                  data-rename={e.id}
                  onClick={() => setEditing(e.id)}
                  className="grid size-11 shrink-0 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
                >
                  <Pencil aria-hidden className="size-4" />
                </button>
                <button
                  type="button"
                  aria-label={`Delete ${e.name}`}
                  onClick={async () => {
                    if (
                      await confirm(`Delete the saved settings “${isolateText(e.name)}”?`, {
                        confirmLabel: 'Delete',
                        danger: true,
                      })
                    )
                      await removeSettings(e.id).catch((err: unknown) => toast(messageOf(err), 'danger'));
                  }}
                  className="grid size-11 shrink-0 place-items-center rounded-lg text-danger hover:bg-danger-soft"
                >
                  <Trash2 aria-hidden className="size-4" />
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <SaveModal current={current} />
    </section>
  );
}

/**
 * Renaming one saved setting in its row. The form stays open until the name is saved; what is wrong
 * is shown as every form shows it (components/ui/form-feedback.ts), under the name; a saved name is
 * said by the toast and the form gives way to the row (its Rename button takes focus).
 */
function RenameForm({ entry, onDone }: { entry: PlaylistEntry; onDone: () => void }) {
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
      feedback.fail(err, errorMessage(err, ['settings'], FAILED));
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
function SaveModal({ current }: { current: MetronomeSettings }) {
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
      feedback.fail(err, errorMessage(err, ['settings'], FAILED));
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
