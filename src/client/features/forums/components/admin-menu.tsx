import { FolderInput, Lock, LockOpen, Pin, PinOff, Settings } from 'lucide-react';
import type { TopicDto } from '#shared/forums';
import { Dropdown, DropdownItem, DropdownLabel, DropdownSeparator } from '#client/components/ui/dropdown.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { errorMessage } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { forumCalls, useCategories, useRefreshForums } from '../api/forums.ts';

/** Admins: pin or unpin, lock or unlock, move to another category (the server checks the role). */
export function TopicAdminMenu({ topic }: { topic: TopicDto }) {
  const categories = useCategories();
  const refresh = useRefreshForums();
  if (!pageConfig().admin) return null;

  /** pin and lock show their badge at once; a move says where the topic went */
  const run = async (call: () => Promise<unknown>, done?: string) => {
    try {
      await call();
      if (done) toast(done);
    } catch (err) {
      toast(errorMessage(err, ['category_id', 'pinned', 'locked']), 'danger');
    } finally {
      await refresh();
    }
  };

  return (
    <Dropdown label="Moderate topic" trigger={<Settings aria-hidden className="size-5" />}>
      <DropdownLabel>Moderate</DropdownLabel>
      <DropdownItem onSelect={() => void run(() => forumCalls.pin(topic.id, !topic.pinned))}>
        {topic.pinned ? <PinOff aria-hidden className="size-5" /> : <Pin aria-hidden className="size-5" />}
        {topic.pinned ? 'Unpin topic' : 'Pin topic'}
      </DropdownItem>
      <DropdownItem onSelect={() => void run(() => forumCalls.lock(topic.id, !topic.locked))}>
        {topic.locked ? <LockOpen aria-hidden className="size-5" /> : <Lock aria-hidden className="size-5" />}
        {topic.locked ? 'Unlock topic' : 'Lock topic'}
      </DropdownItem>
      <DropdownSeparator />
      <DropdownLabel>Move to</DropdownLabel>
      {categories.data
        ?.filter((c) => c.id !== topic.categoryId)
        .map((c) => (
          <DropdownItem
            key={c.id}
            onSelect={() => void run(() => forumCalls.move(topic.id, c.id), `Topic moved to ${c.title}.`)}
          >
            <FolderInput aria-hidden className="size-5" /> {c.title}
          </DropdownItem>
        ))}
    </Dropdown>
  );
}
