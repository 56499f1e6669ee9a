import { useCallback, useEffect, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { sameSitePath } from '#shared/discussion';
import { useReturnFocus } from '#client/components/ui/return-focus.ts';

import { POSTS_MODAL_EVENT } from '../posts-modal-event.ts';

export { openPostsModal, POSTS_MODAL_EVENT } from '../posts-modal-event.ts';

/**
 * An iframe modal whose address is set by the page-wide `open-posts-modal` event; other sites' addresses
 * are refused. `initialUrl`: the address of the event that had it mounted (the page frame loads it then).
 * Opened without a trigger, it gives focus back to what had it when it opened (components/ui/return-focus.ts).
 */
export function PostsModal({ initialUrl = null }: { initialUrl?: string | null }) {
  const [url, setUrl] = useState<string | null>(() => (initialUrl ? sameSitePath(initialUrl) : null));
  // Keys pressed inside the frame are the frame's document's, not this page's: Radix never hears its
  // Escape. The frame is same-site, so its window is listened to as well (again after each load).
  const close = useCallback(() => setUrl(null), []);
  const focusBack = useReturnFocus();
  const frameRef = useCallback(
    (frame: HTMLIFrameElement | null) => {
      if (!frame) return;
      const onKey = (e: KeyboardEvent) => {
        if (e.key === 'Escape' && !e.defaultPrevented) close();
      };
      const listen = () => {
        try {
          frame.contentWindow?.addEventListener('keydown', onKey);
        } catch {
          // a frame that is not same-site after all: its keys stay its own
        }
      };
      listen();
      frame.addEventListener('load', listen);
    },
    [close],
  );
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
          <Dialog.Content
            {...focusBack}
            className="fixed left-1/2 top-1/2 z-[901] flex h-[88vh] w-[calc(100vw-1rem)] max-w-3xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-line bg-surface text-fg shadow-2xl"
          >
            <div className="flex items-center justify-between border-b border-line px-4 py-1">
              <Dialog.Title className="text-lg font-bold">Discussion</Dialog.Title>
              <Dialog.Description className="sr-only">A post and its replies</Dialog.Description>
              <Dialog.Close
                aria-label="Close"
                className="grid size-11 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
              >
                <X aria-hidden className="size-5" />
              </Dialog.Close>
            </div>
            {url ? (
              <iframe
                ref={frameRef}
                src={url}
                title="Discussion"
                className="w-full flex-1 border-0 bg-bg"
                data-testid="posts-modal-frame"
              />
            ) : null}
          </Dialog.Content>
        </Dialog.Portal>
      ) : null}
    </Dialog.Root>
  );
}
