import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import * as Dialog from '@radix-ui/react-dialog';
import { format } from 'date-fns';
import { Lock } from 'lucide-react';
import clsx from 'clsx';
import { pointsMessage } from '#shared/learning';
import { userChannel } from '#shared/realtime';
import type { AchievementsResponse } from '#shared/rewards';
import { get } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { useChannelEvent } from '#client/lib/socket.ts';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { useReturnFocus } from '#client/components/ui/return-focus.ts';

/** Points flash and achievement popup from the member's private channel (docs/product/rewards.md). */
export function RewardListener() {
  const id = pageConfig().authId;
  const channel = id ? userChannel(id) : null;
  // one action may unlock more than one achievement: each is shown in turn, in the order announced
  // (the action's own first), none replaces another
  const [queue, setQueue] = useState<Array<{ imageUrl: string; name: string }>>([]);
  const unlocked = queue[0] ?? null;
  // the popup opens by itself: closing it gives focus back to what the member was on
  const focusBack = useReturnFocus();
  useChannelEvent<{ point: { points: number; description: string } }>(channel, 'PointsAdded', ({ point }) =>
    toast(pointsMessage(point.points, point.description), 'success'),
  );
  useChannelEvent<{ imageUrl: string; progress: { details: { name: string } } }>(channel, 'UnlockedAchievement', (p) =>
    setQueue((q) => [...q, { imageUrl: p.imageUrl, name: p.progress.details.name }]),
  );
  return (
    <Dialog.Root open={!!unlocked} onOpenChange={(open) => !open && setQueue((q) => q.slice(1))}>
      {unlocked ? (
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-[1200] bg-black/55" />
          <Dialog.Content
            {...focusBack}
            className="fixed left-1/2 top-1/2 z-[1201] flex w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 flex-col items-center gap-4 rounded-2xl border border-line bg-surface p-8 text-center text-fg shadow-2xl"
          >
            <img src={unlocked.imageUrl} alt="" className="size-28" />
            <Dialog.Title className="text-2xl font-extrabold">Achievement unlocked!</Dialog.Title>
            <Dialog.Description className="text-lg">{unlocked.name}</Dialog.Description>
            <a href="/achievements" className={buttonClass('primary')}>
              See your achievements
            </a>
            <Dialog.Close className={buttonClass('ghost')}>Keep practising</Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      ) : null}
    </Dialog.Root>
  );
}

export function AchievementsView() {
  const q = useQuery({
    queryKey: ['achievements'],
    queryFn: () => get<AchievementsResponse>('/api/achievements'),
  });
  if (q.isPending) return <Spinner />;
  if (q.isError) return <p className="text-muted">We could not load your achievements.</p>;
  return (
    <div className="flex flex-col gap-6">
      <p className="text-lg">
        <span className="text-4xl font-black tabular">{q.data.points}</span>{' '}
        <span className="text-muted">points earned</span>
      </p>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {q.data.data.map((a) => {
          const earned = !!a.unlocked_at;
          const percent = Math.round((a.progress / a.threshold) * 100);
          return (
            <li
              key={a.slug}
              className={clsx('flex gap-4 rounded-2xl border bg-surface p-5', earned ? 'border-accent' : 'border-line')}
            >
              <div className="relative shrink-0">
                <img src={a.image_url} alt="" className={clsx('size-16', !earned && 'opacity-40 grayscale')} />
                {!earned ? <Lock aria-hidden className="absolute bottom-0 right-0 size-5 text-muted" /> : null}
              </div>
              <div className="flex flex-1 flex-col gap-1">
                <h2 className="text-lg font-bold">{a.name}</h2>
                <p className="text-muted">{a.description}</p>
                {earned ? (
                  <p className="text-sm font-semibold text-success">Earned {format(new Date(a.unlocked_at!), 'PP')}</p>
                ) : (
                  <div className="flex items-center gap-2">
                    <div
                      role="progressbar"
                      aria-label={`${a.name} progress`}
                      aria-valuenow={percent}
                      aria-valuemin={0}
                      aria-valuemax={100}
                      className="h-2 flex-1 overflow-hidden rounded-full bg-surface-2"
                    >
                      <div className="h-full rounded-full bg-accent" style={{ width: `${percent}%` }} />
                    </div>
                    <span className="text-sm tabular text-muted">
                      {a.progress}/{a.threshold}
                    </span>
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
