import { COMMUNITY_MESSAGES } from '#shared/community';
import { ApiError } from '#client/lib/api.ts';
import { MembersOnly } from './members-only.tsx';

/** A failed forum read: the members-only message for a 403 of that kind, otherwise the server's message. */
export function ForumError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 403 && error.message === COMMUNITY_MESSAGES.communityMembersOnly)
    return <MembersOnly />;
  const message =
    error instanceof ApiError
      ? error.message
      : 'We could not load the forums. Please check your connection and try again.';
  return (
    <p role="alert" className="rounded-2xl border border-line bg-surface p-6 text-muted">
      {message}
    </p>
  );
}
