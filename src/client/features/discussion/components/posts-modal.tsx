import { useEffect, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { sameSitePath } from '#shared/discussion';

export const POSTS_MODAL_EVENT = 'open-posts-modal';

/** Opens the posts modal on a same-site address (a page-wide event). */
export function openPostsModal(url: string) {
  window.dispatchEvent(new CustomEvent(POSTS_MODAL_EVENT, { detail: { url } }));
}

/** An iframe modal whose address is set by the page-wide `open-posts-modal` event; other sites' addresses are refused. */
export function PostsModal() {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const onOpen = (e: Event) => {
      const path = sameSitePath(String((e as CustomEvent<{ url?: unknown }>).detail?.url ?? ''));
      if (path) setUrl(path);
    };
    window.addEventListener(POSTS_MODAL_EVENT, onOpen);
    return () => window.removeEventListener(POSTS_MODAL_EVENT, onOpen);
  }, []);
  return (
    <Dialog.Root open={url !== null} onOpenChange={(open) => !open && setUrl(null)}>
      {url !== null ? (
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-[900] bg-black/55" />
          <Dialog.Content className="fixed left-1/2 top-1/2 z-[901] flex h-[88vh] w-[calc(100vw-1rem)] max-w-3xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-line bg-surface text-fg shadow-2xl">
            <div className="flex items-center justify-between border-b border-line px-4 py-1">
              <Dialog.Title className="text-lg font-bold">Discussion</Dialog.Title>
              <Dialog.Description className="sr-only">A post and its replies</Dialog.Description>
              <Dialog.Close aria-label="Close" className="grid size-11 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg">
                <X aria-hidden className="size-5" />
              </Dialog.Close>
            </div>
            {url ? <iframe src={url} title="Discussion" className="w-full flex-1 border-0 bg-bg" data-testid="posts-modal-frame" /> : null}
          </Dialog.Content>
        </Dialog.Portal>
      ) : null}
    </Dialog.Root>
  );
}
