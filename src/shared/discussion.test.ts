import { describe, expect, it } from 'vitest';
import { hashPostId, linkify, permalinkFor, sameSitePath, truncateMiddle, youtubeIds } from './discussion.ts';

describe('post text rules', () => {
  it('finds video ids in every link form, once each, in order', () => {
    const text = [
      'https://youtu.be/aaaaaaaaaaa',
      'https://www.youtube.com/watch?list=x&v=bbbbbbbbbbb&t=3',
      'https://youtube.com/shorts/ccccccccccc',
      'https://www.youtube-nocookie.com/embed/ddddddddddd',
      'again https://youtu.be/aaaaaaaaaaa',
      'not https://example.com/watch?v=eeeeeeeeeee',
    ].join(' ');
    expect(youtubeIds(text)).toEqual(['aaaaaaaaaaa', 'bbbbbbbbbbb', 'ccccccccccc', 'ddddddddddd']);
  });

  it('truncates link text to 40 characters in the middle', () => {
    const url = 'https://example.com/' + 'x'.repeat(100) + '/end';
    const short = truncateMiddle(url);
    expect(short).toHaveLength(40);
    expect(short.startsWith('https://example.com/')).toBe(true);
    expect(short.endsWith('/end')).toBe(true);
    expect(truncateMiddle('https://a.b/')).toBe('https://a.b/');
  });

  it('links http(s) addresses only, leaving trailing punctuation and everything else as text', () => {
    expect(linkify('see https://a.test/x, and javascript:alert(1) <b>hi</b>.')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', href: 'https://a.test/x', text: 'https://a.test/x' },
      { kind: 'text', text: ', and javascript:alert(1) <b>hi</b>.' },
    ]);
  });

  it('permalinks, hashes and same-site addresses', () => {
    expect(permalinkFor('forumtopic', 3)).toBe('/forums/topic/3');
    expect(permalinkFor('lesson', 4)).toBe('/lessons/4');
    expect(hashPostId('#123')).toBe(123);
    expect(hashPostId('#abc')).toBeNull();
    expect(hashPostId('')).toBeNull();
    expect(sameSitePath('/posts/1?embed=1')).toBe('/posts/1?embed=1');
    expect(sameSitePath('//evil.test/')).toBeNull();
    expect(sameSitePath('https://evil.test/')).toBeNull();
    expect(sameSitePath('/\\evil.test')).toBeNull();
  });
});
