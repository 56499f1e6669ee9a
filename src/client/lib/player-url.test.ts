import { describe, expect, it } from 'vitest';
import { playerUrl } from './player-url.ts';

describe('playerUrl: captions on where the video host has them', () => {
  it('asks YouTube to show captions from the start, in English', () => {
    const url = new URL(playerUrl('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'));
    expect(url.searchParams.get('cc_load_policy')).toBe('1');
    expect(url.searchParams.get('cc_lang_pref')).toBe('en');
    expect(url.searchParams.has('autoplay')).toBe(false);
    expect(new URL(playerUrl('https://www.youtube.com/embed/dQw4w9WgXcQ')).searchParams.get('cc_load_policy')).toBe(
      '1',
    );
  });

  it("turns on Vimeo's English text track", () => {
    expect(new URL(playerUrl('https://player.vimeo.com/video/76979871')).searchParams.get('texttrack')).toBe('en');
  });

  it('adds autoplay when asked, keeps the path and leaves other addresses alone', () => {
    const url = new URL(playerUrl('https://www.youtube-nocookie.com/embed/abcdefghijk?start=30', { autoplay: true }));
    expect(url.pathname).toBe('/embed/abcdefghijk');
    expect(url.searchParams.get('start')).toBe('30');
    expect(url.searchParams.get('autoplay')).toBe('1');
    expect(url.searchParams.get('cc_load_policy')).toBe('1');
    expect(playerUrl('https://example.com/video.mp4')).toBe('https://example.com/video.mp4');
    expect(playerUrl('not a url')).toBe('not a url');
  });
});
