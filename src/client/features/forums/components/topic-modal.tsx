import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useTopic } from '../api/forums.ts';
import { TopicView, type TopicSlots } from './topic-view.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';
import { useReturnFocus } from '#client/components/ui/return-focus.ts';

/**
 * The topic modal (docs/product/forums.md): one topic, with its thread, over the topic list. Closes with Escape,
 * the close icon or a click outside; focus returns to the topic's link.
 */
export function TopicModal({
  topicId,
  onClose,
  ...slots
}: TopicSlots & { topicId: number | null; onClose: () => void }) {
  const q = useTopic(topicId);
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={topicId !== null} onOpenChange={(open) => !open && onClose()}>
      {topicId !== null ? (
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-[900] bg-black/55 backdrop-blur-[2px]" />
          <Dialog.Content
            data-testid="topic-modal"
            {...returnFocus}
            className="fixed inset-x-0 bottom-0 top-3 z-[901] mx-auto flex w-full max-w-3xl flex-col overflow-y-auto overscroll-contain rounded-t-2xl border border-line bg-surface text-fg shadow-2xl sm:inset-x-3 sm:w-auto sm:bottom-6 sm:top-6 sm:rounded-2xl"
          >
            <div className="sticky top-0 z-10 flex justify-end bg-surface/95 px-2 pt-2 backdrop-blur">
              <Dialog.Close
                aria-label="Close"
                className="grid size-11 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
              >
                <X aria-hidden className="size-6" />
              </Dialog.Close>
            </div>
            <Dialog.Title className="sr-only">{q.data?.topic.title ?? 'Forum topic'}</Dialog.Title>
            <Dialog.Description className="sr-only">A forum topic and its discussion</Dialog.Description>
            <div className="px-4 pb-6 sm:px-8 sm:pb-8">
              {topicId !== null ? (
                <TopicView
                  topicId={topicId}
                  variant="modal"
                  renderTitle={(title) => (
                    <h2 className="text-2xl font-extrabold tracking-tight sm:text-3xl">
                      <UserText>{title}</UserText>
                    </h2>
                  )}
                  {...slots}
                />
              ) : null}
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      ) : null}
    </Dialog.Root>
  );
}
