import { useParams } from 'react-router';
import { Link } from '#client/components/ui/link.tsx';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ExternalLink } from 'lucide-react';
import { HISTORY_LABELS, type AdminMemberDetail, type HistoryKey } from '#shared/admin-members';
import { errorMessage, get } from '#client/lib/api.ts';
import { AdminTitle, Panel } from '#client/components/admin/form.tsx';
import { day } from '#client/components/admin/format.tsx';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { MemberAudit } from './audit.tsx';
import { Badges } from './badges.tsx';
import { Entitlements, NotifyForm, RoleForm, Suspension } from './member-forms.tsx';

/** /admin/members/:id: facts, history at a glance, access, role, suspension, a message, and the audit entries. */
export function MemberPage() {
  const id = Number(useParams().id);
  const q = useQuery({
    queryKey: ['admin-member', id],
    queryFn: () => get<AdminMemberDetail>(`/api/admin/members/${id}`),
  });
  if (q.isPending) return <Spinner />;
  if (q.isError)
    return <p className="rounded-lg bg-danger-soft px-3 py-2 font-medium text-danger">{errorMessage(q.error, [])}</p>;
  const { member, history, entitlement_rows } = q.data;
  return (
    <div className="flex flex-col gap-6">
      <Link
        to="/admin/members"
        className="inline-flex min-h-11 items-center gap-1 self-start font-semibold text-accent-strong hover:underline"
      >
        <ArrowLeft aria-hidden className="size-4" /> All members
      </Link>
      <div className="flex items-center gap-4">
        <Avatar src={member.avatar_url} name={member.name} size={64} />
        <div className="min-w-0">
          <AdminTitle title={member.name} description={member.email} />
        </div>
      </div>
      <div className="-mt-4 flex flex-wrap items-center gap-3">
        <Badges m={member} />
        <a
          href={member.profile_url}
          className="inline-flex items-center gap-1 text-sm font-semibold text-accent-strong hover:underline"
        >
          Profile <ExternalLink aria-hidden className="size-4" />
        </a>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Facts">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            {(
              [
                ['Joined', day(member.created_at)],
                ['Last change', day(member.updated_at)],
                ['Stage', member.stage ?? '—'],
                ['Time zone', member.timezone ?? '—'],
                ['Signed up from', member.signup_source ?? '—'],
                ['Profile address', member.slug],
              ] as const
            ).map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="font-semibold text-muted">{k}</dt>
                <dd className="min-w-0 wrap-anywhere">{v}</dd>
              </div>
            ))}
          </dl>
        </Panel>
        <Panel title="History at a glance">
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {(Object.keys(HISTORY_LABELS) as HistoryKey[]).map((k) => (
              <li key={k} className="rounded-xl bg-surface-2 px-3 py-2">
                <p className="text-xl font-bold">{history[k].count}</p>
                <p className="text-sm font-semibold">{HISTORY_LABELS[k]}</p>
                <p className="text-xs text-muted">
                  {history[k].latest ? `latest ${day(history[k].latest)}` : 'none yet'}
                </p>
              </li>
            ))}
          </ul>
        </Panel>
      </div>

      <Entitlements member={member} rows={entitlement_rows} />
      <div className="grid gap-6 lg:grid-cols-2">
        <RoleForm member={member} />
        <Suspension member={member} />
      </div>
      <NotifyForm memberId={member.id} />
      <Panel title="Changes to this member">
        <MemberAudit memberId={member.id} />
      </Panel>
    </div>
  );
}
