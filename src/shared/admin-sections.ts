/** The console's sections, in the side menu's order. Each page's own address is under /admin. */
export const ADMIN_SECTIONS = [
  {
    title: 'Content',
    links: [
      { href: '/admin/courses', label: 'Courses & lessons' },
      { href: '/admin/stages', label: 'Stages' },
      { href: '/admin/placement', label: 'Placement quiz' },
      { href: '/admin/achievements', label: 'Achievements' },
      { href: '/admin/foot-speed', label: 'Foot-speed plans' },
    ],
  },
  {
    title: 'Community',
    links: [
      { href: '/admin/categories', label: 'Forum categories' },
      { href: '/admin/moderation', label: 'Moderation' },
      { href: '/admin/reports', label: 'Reports' },
      { href: '/admin/live', label: 'Live shows' },
    ],
  },
  {
    title: 'Commerce',
    links: [
      { href: '/admin/plans', label: 'Membership plans' },
      { href: '/admin/products', label: 'Courses for sale' },
      { href: '/admin/mentorship-pricing', label: 'Mentorship pricing' },
      { href: '/admin/retention', label: 'Retention offers' },
      { href: '/admin/orders', label: 'Orders' },
      { href: '/admin/subscriptions', label: 'Subscriptions' },
      { href: '/admin/cancellations', label: 'Cancellations' },
      { href: '/admin/receipts', label: 'Receipts' },
      { href: '/admin/webhook-failures', label: 'Webhook failures' },
    ],
  },
  {
    title: 'People',
    links: [
      { href: '/admin/members', label: 'Members' },
      { href: '/admin/mentors', label: 'Mentors' },
      { href: '/admin/leads', label: 'Foot-speed leads' },
      { href: '/admin/reviews', label: 'Reviews' },
      { href: '/admin/accessibility-reports', label: 'Accessibility reports' },
      { href: '/admin/audit-log', label: 'Audit log' },
    ],
  },
  {
    title: 'Site',
    links: [
      { href: '/admin/mail', label: 'Mail' },
      { href: '/admin/jobs', label: 'Background jobs' },
    ],
  },
] as const;
