import { Suspense, useEffect, useRef, useState } from 'react';
import { ListMusic, Pencil, Plus, Star, Trash2 } from 'lucide-react';
import clsx from 'clsx';
import { SOUND_SET_NAMES, SUBDIVISION_LABELS, type MetronomeSettings, type PlaylistEntry } from '#shared/metronome';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { openModal } from '#client/components/ui/modal-events.ts';
import { DeferredModal } from '#client/components/ui/modal-loading.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { errorMessage } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { preloadableLazy } from '#client/lib/preloadable-lazy.ts';
import { PLAYLIST_FAILED, removeSettings, updateSettings, usePlaylist } from '../api/playlist.ts';
import { isolateText } from '#shared/display-text';

const describe = (e: PlaylistEntry) =>
  [`${e.bpm} bpm`, `${e.beats}/${e.note}`, e.subdiv ? SUBDIVISION_LABELS[e.subdiv] : null, SOUND_SET_NAMES[e.soundSet]]
    .filter(Boolean)
    .join(' · ');

// the save and rename forms load on first use, or as a hand nears Save or Rename
const forms = () => import('./playlist-forms.tsx');
const SaveModal = preloadableLazy(() => forms().then((m) => ({ default: m.SaveModal })));
const RenameForm = preloadableLazy(() => forms().then((m) => ({ default: m.RenameForm })));
const preloadForms = () => void Promise.all([SaveModal.preload(), RenameForm.preload()]).catch(() => undefined);

const messageOf = (err: unknown) => errorMessage(err, ['name', 'settings'], PLAYLIST_FAILED);

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
        <Button
          variant="secondary"
          onPointerEnter={preloadForms}
          onFocus={preloadForms}
          onClick={() => openModal('metronome-save')}
        >
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
              <Suspense
                fallback={<span role="status" aria-label={`Opening Rename ${e.name}`} className="min-h-11 flex-1" />}
              >
                <RenameForm entry={e} onDone={() => stopEditing(e.id)} />
              </Suspense>
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
                  onPointerEnter={preloadForms}
                  onFocus={preloadForms}
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
      <DeferredModal name="metronome-save" title="Save settings">
        <SaveModal current={current} />
      </DeferredModal>
    </section>
  );
}
