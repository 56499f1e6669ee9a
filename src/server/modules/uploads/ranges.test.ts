import { describe, expect, it } from 'vitest';
import { mergeRanges, missingRanges, receivedBytes } from '#shared/upload';
import { displayName, extensionOf, sniffAllowed } from './service.ts';
import { mp4Bytes, pngBytes } from '#test/uploads';

describe('byte ranges', () => {
  it('merges overlapping and touching ranges, in any order', () => {
    expect(mergeRanges([], [10, 20])).toEqual([[10, 20]]);
    expect(mergeRanges([[0, 10]], [10, 20])).toEqual([[0, 20]]);
    expect(mergeRanges([[20, 30]], [0, 10])).toEqual([
      [0, 10],
      [20, 30],
    ]);
    expect(
      mergeRanges(
        [
          [0, 10],
          [20, 30],
        ],
        [5, 25],
      ),
    ).toEqual([[0, 30]]);
    expect(mergeRanges([[0, 10]], [0, 10])).toEqual([[0, 10]]);
    expect(mergeRanges([[0, 10]], [3, 3])).toEqual([[0, 10]]);
  });

  it('names what is missing of a file', () => {
    expect(missingRanges([], 100)).toEqual([[0, 100]]);
    expect(missingRanges([[0, 100]], 100)).toEqual([]);
    expect(
      missingRanges(
        [
          [10, 20],
          [50, 100],
        ],
        100,
      ),
    ).toEqual([
      [0, 10],
      [20, 50],
    ]);
    expect(missingRanges([[0, 40]], 100)).toEqual([[40, 100]]);
    expect(
      receivedBytes([
        [0, 10],
        [20, 25],
      ]),
    ).toBe(15);
  });
});

describe('names and content', () => {
  it('reads extensions case-insensitively and keeps only the last path segment of a name', () => {
    expect(extensionOf('Groove.MP4')).toBe('mp4');
    expect(extensionOf('../../x.mov')).toBe('mov');
    expect(extensionOf('.mp4')).toBe('');
    expect(extensionOf('video')).toBe('');
    expect(displayName('../../x.mp4')).toBe('x.mp4');
    expect(displayName('C:\\Users\\me\\take 1.mp4')).toBe('take 1.mp4');
    expect(displayName('a\u0000b\u001f.mp4')).toBe('ab.mp4');
    expect(displayName('../')).toBe('upload');
  });

  it('sniffs videos by content', async () => {
    expect(await sniffAllowed(mp4Bytes(100), 'practice-video')).toBe('video/mp4');
    expect(await sniffAllowed(pngBytes(), 'practice-video')).toBeNull();
    expect(await sniffAllowed(Buffer.from('hello'), 'practice-video')).toBeNull();
  });
});
