import { useEffect, useRef, useState } from 'react';
import clsx from 'clsx';
import { Play } from 'lucide-react';
import { playerUrl } from '#client/lib/player-url.ts';

/**
 * A video from the video host (a lesson's, a mentorship lesson's, one linked in a post): a poster with
 * a play button until it is asked for, then the host's player, playing. The page does not load the
 * host's player (a few hundred KB of script, cookies, and errors when the host is out of reach) for a
 * visitor who never plays it. The button is a real button (keyboard, screen
 * readers); the player takes the focus when it appears, with captions on (playerUrl). `className` sizes and rounds the frame.
 */
export function VideoEmbed({
  src,
  title,
  className = 'rounded-2xl',
}: {
  src: string;
  title: string;
  className?: string;
}) {
  const [playing, setPlaying] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    if (playing) frame.current?.focus();
  }, [playing]);
  return (
    <div className={clsx('aspect-video overflow-hidden bg-black', className)}>
      {playing ? (
        <iframe
          ref={frame}
          src={playerUrl(src, { autoplay: true })}
          title={title}
          className="size-full"
          allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
          allowFullScreen
        />
      ) : (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          aria-label={`Play video: ${title}`}
          className="group flex size-full flex-col items-center justify-center gap-3 bg-gradient-to-br from-stone-900 via-stone-800 to-black text-white focus-visible:outline-4 focus-visible:-outline-offset-4 focus-visible:outline-focus"
        >
          <span className="grid size-16 place-items-center rounded-full bg-accent text-accent-fg shadow-lg transition-transform group-hover:scale-110 sm:size-20">
            <Play aria-hidden className="size-8 translate-x-0.5 fill-current sm:size-10" />
          </span>
          <span className="text-base font-semibold">Play video</span>
        </button>
      )}
    </div>
  );
}
