import { useQuery } from '@tanstack/react-query';
import { ADMIN_SECTIONS, type AdminOverview } from '#shared/admin';
import { get } from '#client/lib/api.ts';
import { AdminTitle, Panel } from '#client/components/admin/form.tsx';
import { TimeAgo } from '#client/components/admin/format.tsx';
import { Loading } from '#client/components/admin/list.tsx';
import { formatMoney } from '#shared/money';

const TILES: Array<{ key: keyof AdminOverview; label: string; href: string; money?: boolean }> = [
  { key: 'members', label: 'Members', href: '/admin/members' },
  { key: 'new_members_30d', label: 'New members, 30 days', href: '/admin/members?sort=created_at&dir=desc' },
  { key: 'active_subscriptions', label: 'Active subscriptions', href: '/admin/subscriptions' },
  { key: 'mentorship_students', label: 'Mentorship students', href: '/admin/mentors' },
  { key: 'open_reports', label: 'Open reports', href: '/admin/reports' },
  { key: 'paid_orders_30d', label: 'Paid orders, 30 days', href: '/admin/orders' },
  { key: 'revenue_30d_cents', label: 'Revenue, 30 days', href: '/admin/orders', money: true },
  { key: 'leads_30d', label: 'Foot-speed leads, 30 days', href: '/admin/leads' },
];

/** /admin: the figures that need attention, every section, and the latest changes. */
export function AdminOverviewPage() {
  const overview = useQuery({ queryKey: ['admin-overview'], queryFn: () => get<AdminOverview>('/api/admin/overview') });
  return (
    <>
      <AdminTitle
        title="Admin console"
        description="Run the academy: content, community, sales and people. Every change here is recorded in the audit log."
      />
      <Loading query={overview}>
        {(data) => (
          <div className="flex flex-col gap-8">
            <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
              {TILES.map((t) => (
                <li key={t.key}>
                  <a
                    href={t.href}
                    className="flex h-full flex-col gap-1 rounded-2xl border border-line bg-surface p-4 hover:border-accent"
                  >
                    <span
                      className={`tabular font-extrabold [overflow-wrap:anywhere] sm:text-3xl ${t.money ? 'text-xl' : 'text-2xl'}`}
                    >
                      {t.money ? formatMoney(data[t.key] as number) : (data[t.key] as number)}
                    </span>
                    <span className="text-sm text-muted">{t.label}</span>
                  </a>
                </li>
              ))}
            </ul>
            <div className="grid gap-6 lg:grid-cols-2">
              {ADMIN_SECTIONS.map((s) => (
                <Panel key={s.title} title={s.title}>
                  <ul className="grid gap-1 sm:grid-cols-2">
                    {s.links.map((l) => (
                      <li key={l.href}>
                        <a
                          href={l.href}
                          className="flex min-h-11 items-center rounded-lg px-3 font-medium hover:bg-surface-2"
                        >
                          {l.label}
                        </a>
                      </li>
                    ))}
                  </ul>
                </Panel>
              ))}
            </div>
            <Panel title="Latest changes">
              {data.recent_changes.length === 0 ? (
                <p className="text-muted">No changes yet.</p>
              ) : (
                <ul className="divide-y divide-line">
                  {data.recent_changes.map((e) => (
                    <li key={e.id} className="flex flex-col gap-0.5 py-2 sm:flex-row sm:items-baseline sm:gap-3">
                      <span className="font-semibold">{e.actor.name}</span>
                      <span className="font-mono text-sm">{e.action}</span>
                      <span className="min-w-0 flex-1 truncate text-muted" title={e.summary}>
                        {e.summary}
                      </span>
                      <TimeAgo iso={e.created_at} className="text-sm text-muted" />
                    </li>
                  ))}
                </ul>
              )}
              <a
                href="/admin/audit-log"
                className="mt-3 inline-flex min-h-11 items-center font-semibold text-accent-strong hover:underline"
              >
                The whole audit log
              </a>
            </Panel>
          </div>
        )}
      </Loading>
    </>
  );
}
