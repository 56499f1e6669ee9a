import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Link } from '#client/components/ui/link.tsx';
import { Music, Plus, RotateCcw } from 'lucide-react';
import clsx from 'clsx';
import { formatDistanceToNow } from 'date-fns';
import { emptySong, SONG, type Song } from '#shared/songmapper';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ApiError } from '#client/lib/api.ts';
import { useSong, useSongs } from '../api/songs.ts';
import { readDraft, SongEditor } from './song-editor.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

/**
 * The song mapper page (docs/product/song-mapper.md): the editor for a new song at `base`, or a saved one at
 * `base/{id}`; after the first save the address becomes `base/{id}` without a reload (the editor
 * stays mounted). Beside it, the member's songs.
 */
export function SongMapper({ id, base }: { id: string | null; base: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  // one editor per visit: a navigation gets a fresh one, except the address change after a first save
  const [editorKey, setEditorKey] = useState(location.key);
  const [lastKey, setLastKey] = useState(location.key);
  const [adopted, setAdopted] = useState<string | null>(null);
  if (location.key !== lastKey) {
    setLastKey(location.key);
    if (!(location.state as { adopted?: boolean } | null)?.adopted) {
      setEditorKey(location.key);
      setAdopted(null);
    }
  }
  const onCreated = (newId: string) => {
    setAdopted(newId);
    navigate(`${base}/${newId}`, { replace: true, state: { adopted: true } });
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <section aria-label="Song" className="rounded-2xl border border-line bg-surface p-4 sm:p-6">
        {id && id !== adopted ? (
          <SavedSong key={editorKey} id={id} base={base} />
        ) : (
          <NewSong key={editorKey} base={base} onCreated={onCreated} />
        )}
      </section>
      <SongList base={base} current={id} />
    </div>
  );
}

function NewSong({ base, onCreated }: { base: string; onCreated: (id: string) => void }) {
  // read once: the editor rewrites the draft as the member types
  const [draft] = useState(() => readDraft(null));
  const [choice, setChoice] = useState<'ask' | 'restore' | 'fresh'>(draft ? 'ask' : 'fresh');
  if (choice === 'ask' && draft) {
    return (
      <div className="flex flex-col items-start gap-4 py-6">
        <h2 className="text-xl font-bold">You have an unsaved song</h2>
        <p className="text-muted">
          “<UserText>{draft.song.title || SONG.untitled}</UserText>”, changed{' '}
          {formatDistanceToNow(new Date(draft.at), { addSuffix: true })}, never reached our server. Pick it up where you
          left it?
        </p>
        <div className="flex flex-wrap gap-3">
          <Button onClick={() => setChoice('restore')}>
            <RotateCcw aria-hidden className="size-5" /> Restore it
          </Button>
          <Button variant="secondary" onClick={() => setChoice('fresh')}>
            Start a new song
          </Button>
        </div>
      </div>
    );
  }
  const restore = choice === 'restore' && draft !== null;
  return (
    <SongEditor
      id={null}
      initial={restore ? draft.song : emptySong()}
      restored={restore}
      base={base}
      onCreated={onCreated}
    />
  );
}

function SavedSong({ id, base }: { id: string; base: string }) {
  const song = useSong(id);
  if (song.isPending) return <Spinner label="Loading the song" className="w-full py-16" />;
  if (song.isError) {
    const missing = song.error instanceof ApiError && song.error.status === 404;
    return (
      <div className="flex flex-col items-start gap-3 py-8">
        <h2 className="text-xl font-bold">{missing ? 'We could not find that song' : 'The song did not load'}</h2>
        <p className="text-muted">{missing ? 'It may have been deleted.' : song.error.message}</p>
        <Link to={base} className={buttonClass('secondary')}>
          Back to the song mapper
        </Link>
      </div>
    );
  }
  // an edit this browser kept that is newer than the server's copy wins (and is saved at once)
  const draft = readDraft(id);
  const newer = draft !== null && new Date(draft.at) > new Date(song.data.updated_at);
  const initial: Song = newer ? draft.song : song.data.song;
  return <SongEditor id={id} initial={initial} restored={newer} base={base} onCreated={() => undefined} />;
}

function SongList({ base, current }: { base: string; current: string | null }) {
  const songs = useSongs();
  return (
    <aside
      aria-labelledby="my-songs"
      className="flex flex-col gap-3 self-start rounded-2xl border border-line bg-surface p-4 sm:p-5 lg:sticky lg:top-20"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="my-songs" className="text-lg font-bold">
          My songs
        </h2>
        <Link to={base} className={clsx(buttonClass('ghost'), 'px-3')} aria-label="New song">
          <Plus aria-hidden className="size-5" /> New
        </Link>
      </div>
      {songs.isPending ? <Spinner label="Loading your songs" className="py-6" /> : null}
      {songs.data?.length === 0 ? (
        <p className="text-muted">Your mapped songs will be listed here. Changes save themselves as you type.</p>
      ) : null}
      {songs.data?.length ? (
        <ul className="-mx-2 flex flex-col">
          {songs.data.map((s) => (
            <li key={s.id}>
              <Link
                to={`${base}/${s.id}`}
                aria-current={s.id === current ? 'page' : undefined}
                className={clsx(
                  'flex min-h-14 items-center gap-3 rounded-xl px-2 py-2 hover:bg-surface-2',
                  s.id === current && 'bg-accent-soft',
                )}
              >
                <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-surface-2 text-accent">
                  <Music aria-hidden className="size-5" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold" title={s.title || SONG.untitled}>
                    {s.title || SONG.untitled}
                  </span>
                  <span className="block text-sm text-muted">
                    {s.bpm ? `${s.bpm} bpm · ` : ''}
                    {s.sections} {s.sections === 1 ? 'section' : 'sections'} ·{' '}
                    {formatDistanceToNow(new Date(s.updated_at), { addSuffix: true })}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </aside>
  );
}
