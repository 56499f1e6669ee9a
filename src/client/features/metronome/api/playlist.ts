import { useEffect, useSyncExternalStore } from 'react';
import { PLAYLIST, START_UP, type PlaylistEntry, type SavedSettings } from '#shared/metronome';
import { api, get, post } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';

/** What a failed save, rename or delete of a saved setting says when the server gave no reason. */
export const PLAYLIST_FAILED = 'That did not work. Please try again.';

type Change = { name?: string; fav?: boolean; settings?: SavedSettings };
const order = (list: PlaylistEntry[]) =>
  [...list].sort((a, b) => Number(b.fav) - Number(a.fav) || a.name.localeCompare(b.name) || a.id - b.id);

/** A visitor's playlist lives in this browser; a member's on the server (and so on every device). */
const local = {
  read(): PlaylistEntry[] {
    try {
      const kept = localStorage.getItem(PLAYLIST.storageKey);
      // a browser that has never kept a list starts with the default entry (docs/product/metronome.md)
      return kept === null ? [{ ...START_UP }] : (JSON.parse(kept) as PlaylistEntry[]);
    } catch {
      return [];
    }
  },
  write(list: PlaylistEntry[]) {
    localStorage.setItem(PLAYLIST.storageKey, JSON.stringify(list));
    return order(list);
  },
};

const store = {
  list: async () =>
    pageConfig().authId ? (await get<{ data: PlaylistEntry[] }>('/api/metronome_settings/')).data : order(local.read()),
  create: async (name: string, fav: boolean, settings: SavedSettings): Promise<PlaylistEntry> => {
    if (pageConfig().authId)
      return (await post<{ data: PlaylistEntry }>('/api/metronome_settings/', { name, fav, settings })).data;
    const list = local.read();
    const entry = { ...settings, id: Math.max(0, ...list.map((e) => e.id)) + 1, name, fav };
    local.write([...list, entry]);
    return entry;
  },
  update: async (id: number, change: Change) => {
    if (pageConfig().authId)
      return (await api<{ data: PlaylistEntry }>('PATCH', `/api/metronome_settings/${id}`, change)).data;
    local.write(local.read().map((e) => (e.id === id ? { ...e, ...change.settings, ...stripUndefined(change) } : e)));
    return null;
  },
  remove: async (id: number) => {
    if (pageConfig().authId) await api('DELETE', `/api/metronome_settings/${id}`);
    else local.write(local.read().filter((e) => e.id !== id));
  },
};

/*
 * The page's copy of the list: one small store instead of the query cache, so that the public
 * /metronome page does not load TanStack Query (a public page's initial JavaScript stays within its
 * budget: scripts/initial-js.ts). Rename, favourite and delete show at once and roll back if the server says no.
 */
let current: PlaylistEntry[] | undefined;
let loading = false;
/** bumped by every local change: a list read that started before it is stale */
let version = 0;
const listeners = new Set<() => void>();
const set = (list: PlaylistEntry[] | undefined) => {
  current = list;
  for (const l of listeners) l();
};
const change = (edit: (list: PlaylistEntry[]) => PlaylistEntry[]) => {
  version += 1;
  const before = current;
  set(edit(current ?? []));
  return () => set(before);
};

function load() {
  if (loading) return;
  loading = true;
  const started = version;
  store.list().then(
    (list) => {
      loading = false;
      // changed here meanwhile: read again, so the list has both the change and the server's entries
      if (started === version) set(list);
      else load();
    },
    () => {
      loading = false;
    },
  );
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The saved settings, in order (favourites first); undefined until read. */
export function usePlaylist(): PlaylistEntry[] | undefined {
  useEffect(load, []);
  return useSyncExternalStore(subscribe, () => current);
}

export async function saveSettings(b: { name: string; fav: boolean; settings: SavedSettings }) {
  const entry = await store.create(b.name, b.fav, b.settings);
  change((list) => order([...list, entry]));
  return entry;
}

export async function updateSettings(id: number, edit: Change) {
  const rollback = change((list) =>
    order(list.map((e) => (e.id === id ? { ...e, ...edit.settings, ...stripUndefined(edit) } : e))),
  );
  try {
    await store.update(id, edit);
  } catch (err) {
    rollback();
    throw err;
  }
}

export async function removeSettings(id: number) {
  const rollback = change((list) => list.filter((e) => e.id !== id));
  try {
    await store.remove(id);
  } catch (err) {
    rollback();
    throw err;
  }
}

function stripUndefined(change: Change) {
  return {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.fav !== undefined ? { fav: change.fav } : {}),
  };
}

/** "Log to journal" after a speed-training run: one journal exercise with both tempos. */
export const logSpeedRun = (exercise: string, startingTempo: number, endingTempo: number) =>
  post('/journal', {
    exercises: JSON.stringify([
      { practicedToday: exercise, startingTempo: String(startingTempo), endingTempo: String(endingTempo) },
    ]),
  });
