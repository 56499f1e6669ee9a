import type { Song } from '#shared/songmapper';
import { pageConfig } from '#client/lib/page-config.ts';

/**
 * A song's unsaved edit, kept in this browser until the server has it (docs/product/song-mapper.md):
 * one per member and song, `new` for a song without an id yet.
 */
const draftKey = (id: string | null) => `bb-song-draft:${pageConfig().authId ?? 0}:${id ?? 'new'}`;

export interface Draft {
  song: Song;
  at: string;
}

export function readDraft(id: string | null): Draft | null {
  try {
    const raw = localStorage.getItem(draftKey(id));
    return raw ? (JSON.parse(raw) as Draft) : null;
  } catch {
    return null;
  }
}

/** keeps `song` as the draft of `id`, or drops the draft (null) */
export function writeDraft(id: string | null, song: Song | null) {
  try {
    if (song)
      localStorage.setItem(draftKey(id), JSON.stringify({ song, at: new Date().toISOString() } satisfies Draft));
    else localStorage.removeItem(draftKey(id));
  } catch {
    // storage full or disabled: the server copy and the retry still stand
  }
}
