// The people pages of the admin console, loaded on first visit (see ./routes.tsx).
export { MembersPage } from './members.tsx';
export { MemberPage } from './member.tsx';
export { AuditLogPage } from './audit.tsx';
export { MentorsPage, LeadsPage, ReviewsPage, BarrierReportsPage } from './other.tsx';
