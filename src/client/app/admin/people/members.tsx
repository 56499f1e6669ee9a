import { useState } from 'react';
import { useParams } from 'react-router';
import { Link } from '#client/components/ui/link.tsx';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ArrowLeft, ExternalLink } from 'lucide-react';
import {
  adminNotificationSchema,
  grantEntitlementSchema,
  HISTORY_LABELS,
  memberRoleSchema,
  suspendSchema,
  type AdminMemberDetail,
  type AdminMemberRow,
  type HistoryKey,
} from '#shared/admin-members';
import { api, errorMessage, get } from '#client/lib/api.ts';
import { useAdminAction } from '#client/components/admin/actions.tsx';
import {
  AdminTitle,
  Checkbox,
  Panel,
  Select,
  StatusBadge,
  TextArea,
  useFormErrors,
} from '#client/components/admin/form.tsx';
import { day } from '#client/components/admin/format.tsx';
import { DataTable, FilterSelect, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { MemberAudit } from './audit.tsx';

function Badges({ m }: { m: Pick<AdminMemberRow, 'role' | 'is_mentor' | 'suspended_at'> }) {
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

const COLUMNS: Column<AdminMemberRow>[] = [
  {
    key: 'name',
    label: 'Name',
    sortable: true,
    render: (m) => (
      <Link
        to={`/admin/members/${m.id}`}
        className="inline-flex items-center gap-2 font-semibold text-accent-strong hover:underline"
      >
        <Avatar src={m.avatar_url} name={m.name} size={28} />
        {m.name}
      </Link>
    ),
  },
  { key: 'email', label: 'Email', sortable: true, render: (m) => m.email },
  { key: 'role', label: 'Role', render: (m) => <Badges m={m} /> },
  {
    key: 'entitlements',
    label: 'Access',
    render: (m) => (m.entitlements.length ? m.entitlements.join(', ') : <span className="text-muted">free</span>),
  },
  { key: 'joined', label: 'Joined', sortable: true, render: (m) => day(m.created_at) },
  { key: 'updated', label: 'Last change', sortable: true, render: (m) => day(m.updated_at) },
];

/** /admin/members: search, filter and sort every member on the server. */
export function MembersPage() {
  const result = useAdminList<AdminMemberRow>('admin-members', '/api/admin/members', [
    'role',
    'mentor',
    'suspended',
    'entitlement',
  ]);
  const { list } = result;
  return (
    <div>
      <AdminTitle
        title="Members"
        description="Find a member by name, email or profile address; open one to change their access, role or suspension."
      />
      <DataTable
        result={result}
        columns={COLUMNS}
        rowKey={(m) => m.id}
        searchLabel="Search members"
        empty="No members match."
        toolbar={
          <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap">
            <FilterSelect
              label="Role"
              name="role"
              list={list}
              options={[
                ['', 'Any role'],
                ['member', 'Members'],
                ['admin', 'Admins'],
              ]}
            />
            <FilterSelect
              label="Mentor"
              name="mentor"
              list={list}
              options={[
                ['', 'Anyone'],
                ['yes', 'Mentors'],
                ['no', 'Not mentors'],
              ]}
            />
            <FilterSelect
              label="Suspended"
              name="suspended"
              list={list}
              options={[
                ['', 'Anyone'],
                ['yes', 'Suspended'],
                ['no', 'Not suspended'],
              ]}
            />
            <FilterSelect
              label="Access"
              name="entitlement"
              list={list}
              options={[
                ['', 'Any access'],
                ['membership', 'Membership'],
                ['mentorship', 'Mentorship'],
              ]}
            />
          </div>
        }
      />
    </div>
  );
}

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

/** what a change to one member makes stale: the member, the members list and the audit log */
const memberKeys = (memberId: number): QueryKey[] => [['admin-member', memberId], ['admin-members'], ['admin-audit']];

function useInvalidate(memberId: number) {
  const qc = useQueryClient();
  return () => {
    for (const queryKey of memberKeys(memberId)) void qc.invalidateQueries({ queryKey });
  };
}

function Entitlements({
  member,
  rows,
}: {
  member: AdminMemberDetail['member'];
  rows: AdminMemberDetail['entitlement_rows'];
}) {
  const invalidate = useInvalidate(member.id);
  const form = useFormErrors();
  const [kind, setKind] = useState('membership');
  const [endsAt, setEndsAt] = useState('');
  const [confirm, dialog] = useConfirm();
  const grant = useMutation({
    mutationFn: (body: unknown) => api('POST', `/api/admin/members/${member.id}/entitlements`, body),
    onSuccess: () => {
      toast(`Granted ${kind}.`);
      setEndsAt('');
      invalidate();
    },
    onError: (err) => form.fromServer(err),
  });
  const revoke = useAdminAction({
    mutationFn: (entitlementId: number) =>
      api('POST', `/api/admin/members/${member.id}/entitlements/${entitlementId}/revoke`),
    done: 'Access revoked.',
    invalidate: memberKeys(member.id),
  });
  return (
    <Panel title="Access">
      {dialog}
      {rows.length ? (
        <ul className="mb-6 divide-y divide-line rounded-xl border border-line">
          {rows.map((e) => (
            <li key={e.id} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-semibold">
                  {e.kind}{' '}
                  {e.active ? (
                    <StatusBadge tone="good">active</StatusBadge>
                  ) : (
                    <StatusBadge>{e.revoked_at ? 'revoked' : 'ended'}</StatusBadge>
                  )}
                </p>
                <p className="text-sm text-muted">
                  from {e.source}, since {day(e.starts_at)}
                  {e.ends_at ? `, until ${day(e.ends_at)}` : ''}
                  {e.revoked_at ? `, revoked ${day(e.revoked_at)}` : ''}
                </p>
              </div>
              {e.active ? (
                <Button
                  variant="secondary"
                  disabled={revoke.isPending}
                  onClick={async () => {
                    if (
                      await confirm(`Revoke ${e.kind} from ${member.name}?`, { confirmLabel: 'Revoke', danger: true })
                    )
                      revoke.mutate(e.id);
                  }}
                >
                  Revoke
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-6 text-muted">No access granted yet: a free member.</p>
      )}
      <form
        noValidate
        className="flex flex-col gap-4 sm:flex-row sm:items-start"
        onSubmit={(e) => {
          e.preventDefault();
          const body = form.check(grantEntitlementSchema, { kind, ends_at: endsAt });
          if (body) grant.mutate({ kind: body.kind, ...(body.ends_at ? { ends_at: body.ends_at } : {}) });
        }}
      >
        <Field
          label="Grant access"
          list="entitlement-kinds"
          value={kind}
          onChange={(e) => setKind(e.target.value)}
          error={form.of('kind')}
          hint="membership, mentorship or course:<id>"
          className="flex-1"
        />
        <datalist id="entitlement-kinds">
          <option value="membership" />
          <option value="mentorship" />
        </datalist>
        <Field
          label="Ends on (optional)"
          type="date"
          value={endsAt}
          onChange={(e) => setEndsAt(e.target.value)}
          error={form.of('ends_at')}
          className="sm:w-56"
        />
        <Button type="submit" disabled={grant.isPending} className="sm:mt-7">
          Grant
        </Button>
      </form>
    </Panel>
  );
}

function RoleForm({ member }: { member: AdminMemberDetail['member'] }) {
  const invalidate = useInvalidate(member.id);
  const form = useFormErrors();
  const [role, setRole] = useState(member.role);
  const [mentor, setMentor] = useState(member.is_mentor);
  const save = useMutation({
    mutationFn: (body: unknown) => api('POST', `/api/admin/members/${member.id}/role`, body),
    onSuccess: () => {
      toast('Role saved.');
      invalidate();
    },
    onError: (err) => form.fromServer(err),
  });
  return (
    <Panel title="Role">
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          const body = form.check(memberRoleSchema, { role, is_mentor: mentor });
          if (body) save.mutate(body);
        }}
      >
        <Select
          label="Role"
          value={role}
          onChange={(e) => setRole(e.target.value as 'member' | 'admin')}
          options={[
            ['member', 'Member'],
            ['admin', 'Admin'],
          ]}
          error={form.of('role')}
        />
        <Checkbox
          label="Mentor (takes mentorship students)"
          checked={mentor}
          onChange={setMentor}
          error={form.of('is_mentor')}
        />
        <Button type="submit" disabled={save.isPending} className="self-start">
          Save role
        </Button>
      </form>
    </Panel>
  );
}

function Suspension({ member }: { member: AdminMemberDetail['member'] }) {
  const invalidate = useInvalidate(member.id);
  const form = useFormErrors();
  const [reason, setReason] = useState('');
  const [confirm, dialog] = useConfirm();
  const suspend = useMutation({
    mutationFn: (body: unknown) => api('POST', `/api/admin/members/${member.id}/suspend`, body),
    onSuccess: () => {
      toast(`${member.name} is suspended and signed out everywhere.`);
      setReason('');
      invalidate();
    },
    onError: (err) => form.fromServer(err),
  });
  const lift = useAdminAction({
    mutationFn: () => api('POST', `/api/admin/members/${member.id}/unsuspend`),
    done: 'Suspension lifted.',
    invalidate: memberKeys(member.id),
  });
  return (
    <Panel title="Suspension">
      {dialog}
      {member.suspended_at ? (
        <div className="flex flex-col gap-3">
          <p>
            Suspended on {day(member.suspended_at)}. Reason: <strong>{member.suspended_reason || '—'}</strong>
          </p>
          <Button variant="secondary" className="self-start" disabled={lift.isPending} onClick={() => lift.mutate()}>
            Lift the suspension
          </Button>
        </div>
      ) : (
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={async (e) => {
            e.preventDefault();
            const body = form.check(suspendSchema, { reason });
            if (
              body &&
              (await confirm(`Suspend ${member.name}? They are signed out everywhere and cannot sign in or post.`, {
                confirmLabel: 'Suspend',
                danger: true,
              }))
            )
              suspend.mutate(body);
          }}
        >
          <TextArea
            label="Reason"
            rows={3}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={form.of('reason')}
            hint="Shown to admins only."
          />
          <Button type="submit" variant="danger" disabled={suspend.isPending} className="self-start">
            Suspend member
          </Button>
        </form>
      )}
    </Panel>
  );
}

function NotifyForm({ memberId }: { memberId: number }) {
  const form = useFormErrors();
  const invalidate = useInvalidate(memberId);
  const [body, setBody] = useState('');
  const [url, setUrl] = useState('');
  const send = useMutation({
    mutationFn: (values: unknown) => api('POST', '/api/admin/notifications', values),
    onSuccess: () => {
      toast('Notification sent.');
      setBody('');
      setUrl('');
      invalidate();
    },
    onError: (err) => form.fromServer(err),
  });
  return (
    <Panel title="Send a notification">
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          const values = form.check(adminNotificationSchema, { body, url });
          if (values) send.mutate({ user_id: memberId, ...values });
        }}
      >
        <TextArea
          label="Message"
          rows={3}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          error={form.of('body')}
        />
        <Field
          label="Link (optional)"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="/courses"
          error={form.of('url')}
        />
        <FormError message={form.formError && !form.of('body') && !form.of('url') ? form.formError : null} />
        <Button type="submit" disabled={send.isPending} className="self-start">
          Send
        </Button>
      </form>
    </Panel>
  );
}
