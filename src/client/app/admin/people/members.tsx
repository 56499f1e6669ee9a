import { Link } from '#client/components/ui/link.tsx';
import type { AdminMemberRow } from '#shared/admin-members';
import { AdminTitle } from '#client/components/admin/form.tsx';
import { day } from '#client/components/admin/format.tsx';
import { DataTable, FilterSelect, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Badges } from './badges.tsx';

const COLUMNS: Column<AdminMemberRow>[] = [
  {
    key: 'name',
    wrap: true,
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
  { key: 'email', wrap: true, label: 'Email', sortable: true, render: (m) => m.email },
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
