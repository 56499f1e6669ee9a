import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Song } from '#shared/songmapper';
import { saveSong } from './api/songs.ts';
import { Autosaver, type SaveError, type SaveStatus } from './autosave.ts';
import { writeDraft } from './drafts.ts';

/**
 * The song being edited, saved as the member types: each change is kept as this browser's draft and
 * handed to one Autosaver for the editor's life, which saves it, retries when back online, and
 * flushes when the page is hidden. The first save of a new song answers its id (`onCreated`).
 */
export function useSongAutosave({
  id: initialId,
  initial,
  restored,
  onCreated,
}: {
  id: string | null;
  initial: Song;
  /** `initial` is an unsaved edit kept in this browser: save it at once */
  restored: boolean;
  onCreated: (id: string) => void;
}) {
  const qc = useQueryClient();
  const [song, setSong] = useState<Song>(initial);
  const [id, setId] = useState<string | null>(initialId);
  const [status, setStatus] = useState<SaveStatus>('idle');
  const [error, setError] = useState<SaveError | null>(null);
  const saverRef = useRef<Autosaver<Song> | null>(null);

  useEffect(() => {
    const saver = new Autosaver<Song>(initialId, {
      save: async (value, current) => {
        const res = await saveSong(value, current);
        writeDraft(current, null);
        return res;
      },
      onStatus: (s, e) => {
        setStatus(s);
        setError(e);
        if (s === 'saved') void qc.invalidateQueries({ queryKey: ['songs'] });
      },
      onId: (newId) => {
        writeDraft(null, null);
        setId(newId);
        onCreated(newId);
      },
      isOnline: () => navigator.onLine,
    });
    saverRef.current = saver;
    // an edit restored from this browser (newer than the server's copy) is saved at once
    if (restored) saver.change(initial);
    const flush = () => saver.flush();
    const hidden = () => document.visibilityState === 'hidden' && saver.flush();
    const leave = (e: BeforeUnloadEvent) => {
      if (saver.dirty) e.preventDefault();
    };
    window.addEventListener('online', flush);
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('beforeunload', leave);
    return () => {
      saver.stop();
      window.removeEventListener('online', flush);
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('beforeunload', leave);
    };
    // one saver for this editor's life; the id it learns stays inside it
  }, []);

  const update = (next: Song) => {
    setSong(next);
    writeDraft(saverRef.current?.id ?? id, next);
    saverRef.current?.change(next);
  };
  /** no more saves (the song is being deleted) */
  const stop = () => saverRef.current?.stop();

  return { song, id, status, error, update, stop };
}
