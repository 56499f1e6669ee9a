import { withContext } from '#server/lib/context';
import type { CommunityDeps } from '#server/modules/community-deps';
import { togglePostLike, toggleTopicLike } from './likes.ts';
import { individualThread, inline, revisions, show, thread } from './reading.ts';
import { readable } from './resources.ts';
import { addAttachment, createPost, deleteAttachment, removePost, updatePost } from './writing.ts';

/**
 * Threaded posts on a forum topic or a lesson (docs/product/discussion.md): who may read a thread
 * (resources.ts), reading it (reading.ts), writing in it with its attachments and notifications
 * (writing.ts), likes (likes.ts).
 */
export function createPostService(deps: CommunityDeps) {
  const on = withContext(deps);
  return {
    readable: on(readable),

    thread: on(thread),
    individualThread: on(individualThread),
    inline: on(inline),
    show: on(show),
    revisions: on(revisions),

    create: on(createPost),
    update: on(updatePost),
    remove: on(removePost),

    togglePostLike: on(togglePostLike),
    toggleTopicLike: on(toggleTopicLike),

    addAttachment: on(addAttachment),
    deleteAttachment: on(deleteAttachment),
  };
}
export type PostService = ReturnType<typeof createPostService>;
