import { describe, expect, it } from 'vitest';
import { MENTORSHIP_GRACE_DAYS } from '#shared/mentorship';
import { mentorshipAccess } from './access.ts';

const DAY = 86_400_000;
const now = new Date('2026-11-22T12:00:00Z');
const plan = (
  status: 'active' | 'past_due' | 'defaulted' | 'completed' | 'canceled',
  extra: { pastDueSince?: Date | null; paid?: number; total?: number } = {},
) => ({
  status,
  pastDueSince: extra.pastDueSince ?? null,
  paid: extra.paid ?? 1,
  total: extra.total ?? 6,
});

describe('mentorshipAccess: the one place of the access rules', () => {
  it('paid in full: access for good; refunded: none', () => {
    expect(mentorshipAccess({ refunded: false, plan: null }, now)).toEqual({ status: 'active', access: true });
    expect(mentorshipAccess({ refunded: true, plan: null }, now)).toEqual({ status: 'refunded', access: false });
    expect(mentorshipAccess({ refunded: true, plan: plan('completed') }, now).access).toBe(false);
  });

  it('instalments: active and completed keep access; canceled and defaulted do not', () => {
    expect(mentorshipAccess({ refunded: false, plan: plan('active') }, now)).toEqual({
      status: 'active',
      access: true,
    });
    expect(mentorshipAccess({ refunded: false, plan: plan('completed', { paid: 6 }) }, now)).toEqual({
      status: 'completed',
      access: true,
    });
    expect(mentorshipAccess({ refunded: false, plan: plan('canceled', { paid: 6 }) }, now)).toEqual({
      status: 'completed',
      access: true,
    });
    expect(mentorshipAccess({ refunded: false, plan: plan('canceled', { paid: 2 }) }, now)).toEqual({
      status: 'canceled',
      access: false,
    });
    expect(mentorshipAccess({ refunded: false, plan: plan('defaulted') }, now)).toEqual({
      status: 'defaulted',
      access: false,
    });
  });

  it(`past due keeps access for ${MENTORSHIP_GRACE_DAYS} days, then defaults`, () => {
    const within = new Date(now.getTime() - MENTORSHIP_GRACE_DAYS * DAY + 60_000);
    const beyond = new Date(now.getTime() - MENTORSHIP_GRACE_DAYS * DAY - 60_000);
    expect(mentorshipAccess({ refunded: false, plan: plan('past_due', { pastDueSince: within }) }, now)).toEqual({
      status: 'past_due',
      access: true,
    });
    expect(mentorshipAccess({ refunded: false, plan: plan('past_due', { pastDueSince: beyond }) }, now)).toEqual({
      status: 'defaulted',
      access: false,
    });
  });
});
