/** The page-wide event that opens the posts modal (docs/product/discussion.md): `detail.url` is what its frame shows. */
export const POSTS_MODAL_EVENT = 'open-posts-modal';

/** Opens the posts modal on a same-site address, from any page (the page frame listens). */
export function openPostsModal(url: string) {
  window.dispatchEvent(new CustomEvent(POSTS_MODAL_EVENT, { detail: { url } }));
}
