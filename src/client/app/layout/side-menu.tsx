import * as Accordion from '@radix-ui/react-accordion';
import {
  ChevronDown,
  Drum,
  Dumbbell,
  GraduationCap,
  MessagesSquare,
  Package,
  ShieldCheck,
  UserRound,
  Users,
  BookOpen,
  Settings,
} from 'lucide-react';
import { ADMIN_SECTIONS } from '#shared/admin-sections';
import type { ComponentType } from 'react';
import clsx from 'clsx';
import { pageConfig } from '#client/lib/page-config.ts';

interface Section {
  id: string;
  title: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  links: Array<[string, string]>;
}

const MAIN: Section[] = [
  {
    id: 'learn',
    title: 'Learn',
    icon: GraduationCap,
    links: [
      ['Dashboard', '/dashboard'],
      ['Courses', '/courses'],
      ['Learning Path', '/stages'],
      ['Find Your Stage', '/placement'],
      ['Achievements', '/achievements'],
    ],
  },
  {
    id: 'practice',
    title: 'Practice',
    icon: Dumbbell,
    links: [
      ['Metronome', '/metronome'],
      ['Foot-speed Diagnostic', '/diagnostic'],
      ['Practice Journal', '/journal'],
      ['Song Mapper', '/songmapper'],
    ],
  },
  {
    id: 'community',
    title: 'Community',
    icon: MessagesSquare,
    links: [
      ['Forums', '/forums'],
      ['Live Shows', '/live'],
      ['Friends', '/friends'],
    ],
  },
  {
    id: 'account',
    title: 'Account',
    icon: UserRound,
    links: [
      ['Account', '/account/profile'],
      ['Billing', '/account/billing'],
      ['Notifications', '/notifications'],
    ],
  },
];
/** the mentorship area; mentors (admins) also get their students and the saved plan days */
const mentorshipSections = (admin: boolean): Section[] => [
  {
    id: 'mentorship',
    title: 'Mentorship',
    icon: Drum,
    links: [
      ['Dashboard', '/mentorship'],
      ['Practice plan', '/mentorship/practice-plan'],
      ['Lessons', '/mentorship/lessons'],
      ['Accountability links', '/mentorship/accountability'],
      ['Videos', '/mentorship/videos'],
      ['Song Mapper', '/mentorship/songmapper'],
      ['Notifications', '/mentorship/notifications'],
    ],
  },
  ...(admin
    ? [
        {
          id: 'mentor',
          title: 'Mentor',
          icon: Users,
          links: [
            ['Students', '/mentorship/students'],
            ['Saved days', '/mentorship/practice-plan-days'],
          ],
        } satisfies Section,
      ]
    : []),
  {
    id: 'account',
    title: 'Account',
    icon: UserRound,
    links: [
      ['Account', '/mentorship/account'],
      ['Billing', '/account/billing'],
    ],
  },
  { id: 'academy', title: 'Academy', icon: GraduationCap, links: [['Back to the academy', '/dashboard']] },
];
/** the admin console: its sections, and the way back */
const ADMIN_ICONS = {
  Content: BookOpen,
  Community: MessagesSquare,
  Commerce: Package,
  People: Users,
  Site: Settings,
} as const;
const adminSections: Section[] = [
  { id: 'admin', title: 'Console', icon: ShieldCheck, links: [['Overview', '/admin']] },
  ...ADMIN_SECTIONS.map((s) => ({
    id: s.title.toLowerCase(),
    title: s.title,
    icon: ADMIN_ICONS[s.title],
    links: s.links.map((l) => [l.label, l.href] as [string, string]),
  })),
  { id: 'academy', title: 'Academy', icon: GraduationCap, links: [['Back to the academy', '/dashboard']] },
];
/** admins see a way into the console from the academy's menu */
const ADMIN_ENTRY: Section = { id: 'admin', title: 'Admin', icon: ShieldCheck, links: [['Admin console', '/admin']] };

/** in the mentorship area a page under a link (a lesson, a student) marks that link; the dashboard only itself */
const mentorshipActive = (pathname: string, href: string) =>
  pathname === href || (href !== '/mentorship' && pathname.startsWith(href + '/'));

/** The collapsible side menu: an accordion of sections; the current one starts open. */
export function SideMenu({
  mentorship = false,
  admin = false,
  pathname,
}: {
  mentorship?: boolean;
  admin?: boolean;
  pathname: string;
}) {
  const sections = admin
    ? adminSections
    : mentorship
      ? mentorshipSections(pageConfig().admin)
      : pageConfig().admin
        ? [...MAIN, ADMIN_ENTRY]
        : MAIN;
  const current = sections
    .filter((s) =>
      s.links.some(([, href]) => pathname === href || (href !== '/admin' && pathname.startsWith(href + '/'))),
    )
    .map((s) => s.id);
  return (
    <nav aria-label="Side menu">
      <Accordion.Root
        type="multiple"
        defaultValue={current.length ? current : [sections[0]!.id]}
        className="flex flex-col gap-1"
      >
        {sections.map((s) => (
          <Accordion.Item key={s.id} value={s.id}>
            {/* a group label, not a heading: the menu comes before the page, whose <h1> starts the headings */}
            <Accordion.Header asChild>
              <div>
                <Accordion.Trigger className="group flex min-h-11 w-full items-center gap-3 rounded-xl px-3 text-left font-semibold hover:bg-surface-2">
                  <s.icon aria-hidden className="size-5 text-accent" />
                  <span className="flex-1">{s.title}</span>
                  <ChevronDown
                    aria-hidden
                    className="size-4 text-muted transition-transform duration-150 group-data-[state=open]:rotate-180"
                  />
                </Accordion.Trigger>
              </div>
            </Accordion.Header>
            <Accordion.Content className="overflow-hidden">
              <ul className="mb-2 ml-5 flex flex-col border-l border-line pl-3">
                {s.links.map(([label, href]) => {
                  const active =
                    mentorship || (admin && href !== '/admin') ? mentorshipActive(pathname, href) : pathname === href;
                  return (
                    <li key={href}>
                      <a
                        href={href}
                        aria-current={active ? 'page' : undefined}
                        className={clsx(
                          'flex min-h-11 items-center rounded-lg px-3 text-base hover:bg-surface-2',
                          active ? 'font-semibold text-accent-strong' : 'text-muted hover:text-fg',
                        )}
                      >
                        {label}
                      </a>
                    </li>
                  );
                })}
              </ul>
            </Accordion.Content>
          </Accordion.Item>
        ))}
      </Accordion.Root>
    </nav>
  );
}
