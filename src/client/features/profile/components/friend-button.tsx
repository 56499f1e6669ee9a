import { useState } from 'react';
import { Check, Clock, UserPlus } from 'lucide-react';
import { MESSAGES } from '#shared/constants';
import { Button } from '#client/components/ui/button.tsx';
import { friendCalls, type FriendStatus } from '../api/profile.ts';

const LABELS = { notfriends: 'Add Friend', pending: 'Request Pending', friends: 'Friends' } as const;

/**
 * The friend button (docs/product/friends.md): the state changes at once, without waiting for the answer, and is
 * not reverted when the call fails; an alert says so instead. A request someone sent you is answered
 * with Accept / Decline.
 */
export function FriendButton({
  userId,
  initial,
  relationshipId,
}: {
  userId: number;
  initial: FriendStatus;
  relationshipId: number | null;
}) {
  const [status, setStatus] = useState<FriendStatus>(initial);
  const [relId, setRelId] = useState<number | null>(relationshipId);
  const fail = () => window.alert(MESSAGES.requestFailed);

  async function click() {
    try {
      if (status === 'notfriends') {
        setStatus('pending');
        const res = await friendCalls.add(userId);
        setRelId(res.relationship_id);
        if (res.status === 'friends') setStatus('friends');
      } else if (status === 'pending') {
        setStatus('notfriends');
        if (relId) await friendCalls.cancel(relId);
        setRelId(null);
      } else if (status === 'friends') {
        setStatus('notfriends');
        await friendCalls.unfriend(userId);
        setRelId(null);
      }
    } catch {
      fail();
    }
  }

  if (status === 'incoming' && relId) {
    return (
      <div className="flex flex-wrap gap-2">
        <Button
          onClick={() => {
            setStatus('friends');
            friendCalls.accept(relId).catch(fail);
          }}
        >
          <Check aria-hidden className="size-5" /> Accept friend request
        </Button>
        <Button
          variant="secondary"
          onClick={() => {
            setStatus('notfriends');
            setRelId(null);
            friendCalls.cancel(relId).catch(fail);
          }}
        >
          Decline
        </Button>
      </div>
    );
  }
  const label = LABELS[status === 'incoming' ? 'pending' : status];
  const Icon = status === 'friends' ? Check : status === 'pending' ? Clock : UserPlus;
  return (
    <Button variant={status === 'notfriends' ? 'primary' : 'secondary'} onClick={() => void click()} aria-label={label}>
      <Icon aria-hidden className="size-5" /> {label}
    </Button>
  );
}
