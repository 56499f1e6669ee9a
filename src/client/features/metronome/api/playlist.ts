import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PLAYLIST, type PlaylistEntry, type SavedSettings } from '#shared/metronome';
import { api, get, post } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';

type Change = { name?: string; fav?: boolean; settings?: SavedSettings };
const KEY = ['metronome-playlist'];
const order = (list: PlaylistEntry[]) => [...list].sort((a, b) => Number(b.fav) - Number(a.fav) || a.name.localeCompare(b.name) || a.id - b.id);

/** A visitor's playlist lives in this browser; a member's on the server (and so on every device). */
const local = {
  read(): PlaylistEntry[] {
    try {
      return JSON.parse(localStorage.getItem(PLAYLIST.storageKey) ?? '[]') as PlaylistEntry[];
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
  list: async () => (pageConfig().authId ? (await get<{ data: PlaylistEntry[] }>('/api/metronome_settings/')).data : order(local.read())),
  create: async (name: string, fav: boolean, settings: SavedSettings): Promise<PlaylistEntry> => {
    if (pageConfig().authId) return (await post<{ data: PlaylistEntry }>('/api/metronome_settings/', { name, fav, settings })).data;
    const list = local.read();
    const entry = { ...settings, id: Math.max(0, ...list.map((e) => e.id)) + 1, name, fav };
    local.write([...list, entry]);
    return entry;
  },
  update: async (id: number, change: Change) => {
    if (pageConfig().authId) return (await api<{ data: PlaylistEntry }>('PATCH', `/api/metronome_settings/${id}`, change)).data;
    local.write(local.read().map((e) => (e.id === id ? { ...e, ...change.settings, ...(change.name !== undefined ? { name: change.name } : {}), ...(change.fav !== undefined ? { fav: change.fav } : {}) } : e)));
    return null;
  },
  remove: async (id: number) => {
    if (pageConfig().authId) await api('DELETE', `/api/metronome_settings/${id}`);
    else local.write(local.read().filter((e) => e.id !== id));
  },
};

export const usePlaylist = () => useQuery({ queryKey: KEY, queryFn: store.list });

export function useSaveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { name: string; fav: boolean; settings: SavedSettings }) => store.create(b.name, b.fav, b.settings),
    onSuccess: (entry) => qc.setQueryData<PlaylistEntry[]>(KEY, (list) => order([...(list ?? []), entry])),
  });
}

/** Rename and favourite show at once and roll back if the server says no. */
export function useUpdateSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: { id: number; change: Change }) => store.update(b.id, b.change),
    onMutate: async ({ id, change }) => {
      await qc.cancelQueries({ queryKey: KEY });
      const before = qc.getQueryData<PlaylistEntry[]>(KEY);
      qc.setQueryData<PlaylistEntry[]>(KEY, (list) => order((list ?? []).map((e) => (e.id === id ? { ...e, ...change.settings, ...stripUndefined(change) } : e))));
      return { before };
    },
    onError: (_e, _v, ctx) => qc.setQueryData(KEY, ctx?.before),
  });
}

export function useRemoveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => store.remove(id),
    onMutate: async (id) => {
      await qc.cancelQueries({ queryKey: KEY });
      const before = qc.getQueryData<PlaylistEntry[]>(KEY);
      qc.setQueryData<PlaylistEntry[]>(KEY, (list) => (list ?? []).filter((e) => e.id !== id));
      return { before };
    },
    onError: (_e, _v, ctx) => qc.setQueryData(KEY, ctx?.before),
  });
}

function stripUndefined(change: Change) {
  return { ...(change.name !== undefined ? { name: change.name } : {}), ...(change.fav !== undefined ? { fav: change.fav } : {}) };
}

/** "Log to journal" after a speed-training run: one journal exercise with both tempos. */
export const logSpeedRun = (exercise: string, startingTempo: number, endingTempo: number) =>
  post('/journal', { exercises: JSON.stringify([{ practicedToday: exercise, startingTempo: String(startingTempo), endingTempo: String(endingTempo) }]) });
