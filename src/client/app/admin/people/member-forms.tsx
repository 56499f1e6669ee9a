import { useState } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import {
  adminNotificationSchema,
  grantEntitlementSchema,
  memberRoleSchema,
  suspendSchema,
  type AdminMemberDetail,
} from '#shared/admin-members';
import { api } from '#client/lib/api.ts';
import { useAdminAction } from '#client/components/admin/actions.tsx';
import { Checkbox, Panel, Select, StatusBadge, TextArea, useFormErrors } from '#client/components/admin/form.tsx';
import { day } from '#client/components/admin/format.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { toast } from '#client/components/ui/toast.tsx';

// The panels of a member's page that change the member: access, role, suspension, and a notification.

/** what a change to one member makes stale: the member, the members list and the audit log */
const memberKeys = (memberId: number): QueryKey[] => [['admin-member', memberId], ['admin-members'], ['admin-audit']];

function useInvalidate(memberId: number) {
  const qc = useQueryClient();
  return () => {
    for (const queryKey of memberKeys(memberId)) void qc.invalidateQueries({ queryKey });
  };
}

export function Entitlements({
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

export function RoleForm({ member }: { member: AdminMemberDetail['member'] }) {
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

export function Suspension({ member }: { member: AdminMemberDetail['member'] }) {
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

export function NotifyForm({ memberId }: { memberId: number }) {
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
