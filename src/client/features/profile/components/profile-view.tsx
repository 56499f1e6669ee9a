import { format } from 'date-fns';
import { Camera } from 'lucide-react';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { openModal } from '#client/components/ui/modal.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useFriends, useProfile } from '../api/profile.ts';
import { FriendButton } from './friend-button.tsx';
import { PROFILE_IMAGE_MODAL, ProfileImageModal } from './profile-image-modal.tsx';
import { StatusBox } from './status-box.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

export function ProfileView({ slug }: { slug: string }) {
  const profile = useProfile(slug);
  if (profile.isPending) return <Spinner />;
  if (profile.isError) return <p className="text-muted">We could not find this drummer.</p>;
  const p = profile.data;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col items-start gap-5 rounded-2xl border border-line bg-surface p-6 sm:flex-row sm:items-center">
        <Avatar src={p.avatar_url} name={p.name} size={112} />
        <div className="flex flex-1 flex-col gap-1">
          <h1 className={`text-3xl font-extrabold tracking-tight ${p.admin ? 'text-success' : ''}`}>{p.name}</h1>
          <p className="text-muted">
            {p.stage ? `Stage ${p.stage.id}: ${p.stage.title}` : 'Stage not set yet'} · Member since{' '}
            {format(new Date(p.member_since), 'MMMM yyyy')}
          </p>
        </div>
        {p.is_owner ? (
          <Button variant="secondary" onClick={() => openModal(PROFILE_IMAGE_MODAL)}>
            <Camera aria-hidden className="size-5" /> Change photo
          </Button>
        ) : p.friendship ? (
          <FriendButton userId={p.id} initial={p.friendship.status} relationshipId={p.friendship.relationship_id} />
        ) : null}
      </div>
      <StatusBox profile={p} />
      {p.is_owner ? <ProfileImageModal /> : null}
    </div>
  );
}

export function FriendsView() {
  const friends = useFriends();
  if (friends.isPending) return <Spinner />;
  if (friends.isError) return <p className="text-muted">We could not load your friends.</p>;
  const { incoming, friends: list, outgoing } = friends.data;
  const Row = ({ f, children }: { f: (typeof list)[number]; children?: React.ReactNode }) => (
    <li className="flex flex-wrap items-center gap-3 px-4 py-3">
      <Avatar src={f.avatar_url} name={f.name} size={44} />
      {/* the name keeps a readable width: past it the row's button goes to the next line */}
      <a href={f.profile_url} className="min-w-40 flex-1 wrap-anywhere font-semibold hover:text-accent-strong">
        <UserText>{f.name}</UserText>
      </a>
      {children}
    </li>
  );
  const Section = ({ id, title, children }: { id: string; title: string; children: React.ReactNode }) => (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
  const Rows = ({ items, button }: { items: typeof list; button?: 'incoming' | 'pending' }) => (
    <ul className="divide-y divide-line rounded-2xl border border-line bg-surface">
      {items.map((f) => (
        <Row key={f.relationship_id} f={f}>
          {button ? <FriendButton userId={f.id} initial={button} relationshipId={f.relationship_id} /> : null}
        </Row>
      ))}
    </ul>
  );
  return (
    <div className="flex flex-col gap-8">
      {incoming.length ? (
        <Section id="requests" title="Friend requests">
          <Rows items={incoming} button="incoming" />
        </Section>
      ) : null}
      <Section id="friends" title="Friends">
        {list.length ? (
          <Rows items={list} />
        ) : (
          <p className="text-muted">No friends yet. Say hello in the forums and add drummers from their profiles.</p>
        )}
      </Section>
      {outgoing.length ? (
        <Section id="sent" title="Sent requests">
          <Rows items={outgoing} button="pending" />
        </Section>
      ) : null}
    </div>
  );
}
