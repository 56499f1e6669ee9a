import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { PLAYLIST } from '#shared/metronome';
import { setPageConfig } from '#client/lib/page-config.ts';
import { removeSettings, usePlaylist } from './playlist.ts';

afterEach(() => localStorage.clear());

/** the list as the page's store reads it, through the hook's loader */
async function readList() {
  const { result, unmount } = renderHook(() => usePlaylist());
  await waitFor(() => expect(result.current).toBeDefined());
  const list = result.current!;
  unmount();
  return list;
}

it("a visitor's playlist starts with the default 'Start Up' entry, and a deleted one stays deleted", async () => {
  setPageConfig({});
  const list = await readList();
  expect(list).toEqual([
    expect.objectContaining({ id: 1, name: 'Start Up', fav: false, bpm: 120, beats: 4, note: 4, subdiv: 0 }),
  ]);
  await removeSettings(1);
  expect(JSON.parse(localStorage.getItem(PLAYLIST.storageKey)!)).toEqual([]);
});
