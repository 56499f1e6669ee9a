import { JOIN_URL } from '#shared/commerce';
import { Lock } from 'lucide-react';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { buttonClass } from '#client/components/ui/button.tsx';

/** What a signed-in free member sees instead of the forums. */
export const MembersOnly = () => (
  <div
    className="flex flex-col items-start gap-3 rounded-2xl border border-accent/40 bg-accent-soft p-6"
    data-testid="members-only"
  >
    <Lock aria-hidden className="size-6 text-accent-strong" />
    <p className="text-lg font-semibold">{COMMUNITY_MESSAGES.communityMembersOnly}</p>
    <a href={JOIN_URL} className={buttonClass('primary')}>
      See membership plans
    </a>
  </div>
);
