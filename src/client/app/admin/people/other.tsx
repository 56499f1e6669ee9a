import { Link } from '#client/components/ui/link.tsx';
import { useQuery } from '@tanstack/react-query';
import { Download, ExternalLink } from 'lucide-react';
import type { AdminLeadRow, AdminMentorsOverview, AdminMentorStudent, AdminReviewRow } from '#shared/admin-members';
import type { AdminBarrierRow } from '#shared/accessibility';
import { api, errorMessage, get } from '#client/lib/api.ts';
import { useAdminAction } from '#client/components/admin/actions.tsx';
import { AdminTitle, Panel, StatusBadge } from '#client/components/admin/form.tsx';
import { day } from '#client/components/admin/format.tsx';
import { DataTable, useAdminList, type Column, type useListParams } from '#client/components/admin/list.tsx';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { inputClass } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';

/** A student's mentor picker: assigning goes through the mentorship call, so both sides are notified. */
function MentorPicker({
  student,
  current,
  mentors,
}: {
  student: AdminMentorStudent;
  current: number | null;
  mentors: AdminMentorsOverview['mentors'];
}) {
  const assign = useAdminAction({
    mutationFn: (mentorId: number | null) =>
      api('POST', `/api/mentorship/students/${student.id}/mentor`, { mentor_id: mentorId }),
    done: 'Mentor saved.',
    invalidate: [['admin-mentors'], ['admin-audit']],
    errorFields: ['mentor_id'],
  });
  return (
    <li className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <Link to={`/admin/members/${student.id}`} className="font-semibold text-accent-strong hover:underline">
          {student.name}
        </Link>
        <p className="wrap-anywhere text-sm text-muted">
          {student.email}
          {student.status ? ` · ${student.status}` : ''}
        </p>
      </div>
      <label className="flex flex-col gap-1 sm:w-64">
        <span className="sr-only">Mentor of {student.name}</span>
        <select
          value={current ?? ''}
          disabled={assign.isPending}
          onChange={(e) => assign.mutate(e.target.value ? Number(e.target.value) : null)}
          className={inputClass}
        >
          <option value="">No mentor</option>
          {mentors.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
              {m.is_mentor ? '' : ' (admin)'}
            </option>
          ))}
        </select>
      </label>
    </li>
  );
}

/** /admin/mentors: each mentor's students, students without a mentor, and (re)assignment. */
export function MentorsPage() {
  const q = useQuery({ queryKey: ['admin-mentors'], queryFn: () => get<AdminMentorsOverview>('/api/admin/mentors') });
  return (
    <div className="flex flex-col gap-6">
      <AdminTitle
        title="Mentors"
        description="Every mentor with their students. Changing a student's mentor notifies the student and the new mentor."
        actions={
          <a href="/mentorship/practice-plan-days" className={buttonClass('secondary')}>
            Reusable practice-plan days <ExternalLink aria-hidden className="size-4" />
          </a>
        }
      />
      {q.isPending ? (
        <Spinner />
      ) : q.isError ? (
        <p className="text-danger">{errorMessage(q.error, [])}</p>
      ) : (
        <>
          <Panel title={`Students without a mentor (${q.data.unassigned.length})`}>
            {q.data.unassigned.length ? (
              <ul className="divide-y divide-line rounded-xl border border-line">
                {q.data.unassigned.map((s) => (
                  <MentorPicker key={s.id} student={s} current={null} mentors={q.data.mentors} />
                ))}
              </ul>
            ) : (
              <p className="text-muted">Every student has a mentor.</p>
            )}
          </Panel>
          {q.data.mentors.map((m) => (
            <Panel key={m.id}>
              <div className="mb-4 flex items-center gap-3">
                <Avatar src={m.avatar_url} name={m.name} size={40} />
                <div className="min-w-0">
                  <h2 className="text-lg font-bold">{m.name}</h2>
                  <p className="text-sm text-muted">
                    {m.students.length} {m.students.length === 1 ? 'student' : 'students'}{' '}
                    {m.is_mentor ? <StatusBadge tone="good">Mentor</StatusBadge> : <StatusBadge>Admin</StatusBadge>}
                  </p>
                </div>
              </div>
              {m.students.length ? (
                <ul className="divide-y divide-line rounded-xl border border-line">
                  {m.students.map((s) => (
                    <MentorPicker key={s.id} student={s} current={m.id} mentors={q.data.mentors} />
                  ))}
                </ul>
              ) : (
                <p className="text-muted">No students yet.</p>
              )}
            </Panel>
          ))}
        </>
      )}
    </div>
  );
}

/** The CSV of what the list shows now (its search and sort), from `url`. */
function CsvLink({ url, list }: { url: string; list: ReturnType<typeof useListParams> }) {
  const qs = list.query([]);
  return (
    <a href={`${url}${qs ? `?${qs}` : ''}`} download className={buttonClass('secondary')}>
      <Download aria-hidden className="size-4" /> Download CSV
    </a>
  );
}

const LEAD_COLUMNS: Column<AdminLeadRow>[] = [
  {
    key: 'name',
    wrap: true,
    label: 'Name',
    sortable: true,
    render: (r) => <span className="font-semibold">{r.name}</span>,
  },
  { key: 'email', wrap: true, label: 'Email', sortable: true, render: (r) => r.email },
  { key: 'skill', label: 'Skill', sortable: true, render: (r) => r.skill },
  { key: 'pedal', label: 'Pedal', sortable: true, render: (r) => r.pedal },
  { key: 'primary', wrap: true, label: 'Primary killer', sortable: true, render: (r) => r.primary },
  {
    key: 'answers',
    wrap: true,
    label: 'Answers',
    render: (r) => (
      <details>
        <summary className="cursor-pointer font-semibold text-accent-strong">Show</summary>
        <p className="mt-1 whitespace-pre-line text-sm">{r.answers}</p>
        {r.tempo ? <p className="text-sm text-muted">Tempo {r.tempo}</p> : null}
      </details>
    ),
  },
  { key: 'created_at', label: 'Date', sortable: true, render: (r) => day(r.created_at) },
];

/** /admin/leads: the foot-speed diagnostic's leads; the CSV is the current search. */
export function LeadsPage() {
  const result = useAdminList<AdminLeadRow>('admin-leads', '/api/admin/diagnostic-leads');
  return (
    <div>
      <AdminTitle
        title="Foot-speed leads"
        description="Everyone who finished the foot-speed diagnostic."
        actions={<CsvLink url="/api/admin/diagnostic-leads.csv" list={result.list} />}
      />
      <DataTable
        result={result}
        columns={LEAD_COLUMNS}
        rowKey={(r) => r.id}
        searchLabel="Search leads"
        empty="No leads match."
      />
    </div>
  );
}

const REVIEW_COLUMNS: Column<AdminReviewRow>[] = [
  {
    key: 'name',
    wrap: true,
    label: 'Student',
    sortable: true,
    render: (r) =>
      r.user_id ? (
        <Link to={`/admin/members/${r.user_id}`} className="font-semibold text-accent-strong hover:underline">
          {r.name}
        </Link>
      ) : (
        <span className="text-muted">deleted account</span>
      ),
  },
  { key: 'email', wrap: true, label: 'Email', sortable: true, render: (r) => r.email ?? '—' },
  {
    key: 'body',
    wrap: true,
    label: 'Review',
    className: 'md:w-1/2',
    render: (r) => <span className="whitespace-pre-line">{r.body}</span>,
  },
  { key: 'created_at', label: 'Date', sortable: true, render: (r) => day(r.created_at) },
];

/** /admin/reviews: students' reviews; the CSV is the current search. */
export function ReviewsPage() {
  const result = useAdminList<AdminReviewRow>('admin-reviews', '/api/admin/reviews');
  return (
    <div>
      <AdminTitle
        title="Reviews"
        description="What students wrote in the review form."
        actions={<CsvLink url="/api/admin/reviews.csv" list={result.list} />}
      />
      <DataTable
        result={result}
        columns={REVIEW_COLUMNS}
        rowKey={(r) => r.id}
        searchLabel="Search reviews"
        empty="No reviews match."
      />
    </div>
  );
}

const BARRIER_COLUMNS: Column<AdminBarrierRow>[] = [
  {
    key: 'body',
    wrap: true,
    label: 'Barrier',
    className: 'md:w-1/2',
    render: (r) => (
      <span className="flex flex-col gap-1">
        {r.page ? <span className="font-semibold">{r.page}</span> : null}
        <span className="whitespace-pre-line">{r.body}</span>
      </span>
    ),
  },
  {
    key: 'name',
    wrap: true,
    label: 'From',
    render: (r) =>
      r.user_id ? (
        <Link to={`/admin/members/${r.user_id}`} className="font-semibold text-accent-strong underline">
          {r.name}
        </Link>
      ) : (
        <span className="text-muted">a visitor</span>
      ),
  },
  {
    key: 'email',
    wrap: true,
    label: 'Answer to',
    sortable: true,
    render: (r) =>
      r.email ? (
        <a href={`mailto:${r.email}`} className="break-all text-accent-strong underline">
          {r.email}
        </a>
      ) : (
        '—'
      ),
  },
  { key: 'created_at', label: 'Date', sortable: true, render: (r) => day(r.created_at) },
];

/** /admin/accessibility-reports: barriers reported from the accessibility statement, newest first. */
export function BarrierReportsPage() {
  const result = useAdminList<AdminBarrierRow>('admin-barrier-reports', '/api/admin/barrier-reports');
  return (
    <div>
      <AdminTitle
        title="Accessibility reports"
        description="Barriers that visitors and members reported from the accessibility statement."
      />
      <DataTable
        result={result}
        columns={BARRIER_COLUMNS}
        rowKey={(r) => r.id}
        searchLabel="Search reports"
        empty="No reports match."
      />
    </div>
  );
}
