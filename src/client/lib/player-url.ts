/** the academy's lessons and shows are in English: the captions language asked of the host */
const CAPTIONS_LANG = 'en';

/**
 * A video host's player address with captions on where the host has them (docs/product/accessibility.md):
 * YouTube shows the video's captions from the start with `cc_load_policy=1`; Vimeo turns on the text
 * track of the named language with `texttrack`. `autoplay` adds the host's autoplay switch (the click
 * on the poster was the request to play). Another address is returned as it is.
 */
export function playerUrl(src: string, { autoplay = false }: { autoplay?: boolean } = {}): string {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return src;
  }
  const host = url.hostname.toLowerCase();
  if (host === 'www.youtube.com' || host === 'youtube.com' || host === 'www.youtube-nocookie.com') {
    url.searchParams.set('cc_load_policy', '1');
    if (!url.searchParams.has('cc_lang_pref')) url.searchParams.set('cc_lang_pref', CAPTIONS_LANG);
  } else if (host === 'player.vimeo.com') {
    if (!url.searchParams.has('texttrack')) url.searchParams.set('texttrack', CAPTIONS_LANG);
  }
  if (autoplay) url.searchParams.set('autoplay', '1');
  return url.toString();
}
