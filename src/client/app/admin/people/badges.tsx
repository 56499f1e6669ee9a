import type { AdminMemberRow } from '#shared/admin-members';
import { StatusBadge } from '#client/components/admin/form.tsx';

/** A member's role, and whether they mentor or are suspended: the members list and a member's page. */
export function Badges({ m }: { m: Pick<AdminMemberRow, 'role' | 'is_mentor' | 'suspended_at'> }) {
  return (
    <span className="flex flex-wrap gap-1">
      <StatusBadge tone={m.role === 'admin' ? 'good' : 'neutral'}>
        {m.role === 'admin' ? 'Admin' : 'Member'}
      </StatusBadge>
      {m.is_mentor ? <StatusBadge tone="good">Mentor</StatusBadge> : null}
      {m.suspended_at ? <StatusBadge tone="bad">Suspended</StatusBadge> : null}
    </span>
  );
}
