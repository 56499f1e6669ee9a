import clsx from 'clsx';
import type { PostDto } from '#shared/community';
import { linkify } from '#shared/discussion';
import { VideoEmbed } from '#client/components/ui/video-embed.tsx';
import { pageConfig } from '#client/lib/page-config.ts';

/** Post text: plain text with its line breaks, links made clickable (text shortened in the middle). Never HTML. */
export function PostText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={clsx('whitespace-pre-wrap wrap-anywhere text-base leading-relaxed', className)}>
      {linkify(text).map((part, i) =>
        part.kind === 'text' ? (
          <span key={i}>{part.text}</span>
        ) : (
          <a
            key={i}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer nofollow ugc"
            title={part.href}
            className="font-medium text-accent-strong underline underline-offset-2"
          >
            {part.text}
          </a>
        ),
      )}
    </div>
  );
}

/** A post's body: text, video embeds from links to the video host, then attached images. */
export function PostBody({
  post,
  className,
}: {
  post: Pick<PostDto, 'id' | 'body' | 'videos' | 'attachments' | 'trashed' | 'user'>;
  className?: string;
}) {
  const base = pageConfig().fileStorageBaseUrl;
  return (
    <div className={clsx('flex flex-col gap-3', className)}>
      {post.body ? <PostText text={post.body} /> : null}
      {post.videos.map((id) => (
        <VideoEmbed
          key={id}
          src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}`}
          title={`Video in ${post.user}'s post`}
          className="w-full max-w-xl rounded-xl"
        />
      ))}
      {post.attachments.length ? (
        <div className="flex flex-wrap gap-2">
          {post.attachments.map((name) => (
            <a key={name} href={`${base}/${name}`} target="_blank" rel="noopener noreferrer" className="block">
              <img
                src={`${base}/${name}`}
                alt={`Image attached by ${post.user}`}
                loading="lazy"
                // a lazy image has no size of its own until it loads: the link keeps a tappable box meanwhile
                className="max-h-80 min-h-24 min-w-24 max-w-full rounded-xl border border-line bg-surface-2 object-contain"
              />
            </a>
          ))}
        </div>
      ) : null}
    </div>
  );
}
