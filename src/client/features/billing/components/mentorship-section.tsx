import { CalendarClock, GraduationCap } from 'lucide-react';
import { longDate, MENTORSHIP_STATUS_LABEL, type BillingMentorship } from '#shared/billing';
import { formatMoney } from '#shared/money';
import { StepProgress } from '#client/components/ui/steps.tsx';
import { Link } from '#client/components/ui/link.tsx';
import { Fact, Holding, Section, StatusBadge } from './section.tsx';

const TONE: Record<BillingMentorship['status'], 'good' | 'muted' | 'danger'> = {
  active: 'good',
  completed: 'good',
  granted: 'good',
  past_due: 'danger',
  defaulted: 'danger',
  canceled: 'muted',
  refunded: 'muted',
};

function MentorshipCard({ m }: { m: BillingMentorship }) {
  const s = m.schedule;
  return (
    <Holding testId="billing-mentorship">
      <p className="flex items-center gap-3 text-lg font-semibold">
        <GraduationCap aria-hidden className="size-6 shrink-0 text-accent" />
        <span>
          {m.title} <StatusBadge tone={TONE[m.status]}>{MENTORSHIP_STATUS_LABEL[m.status]}</StatusBadge>
        </span>
      </p>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        <Fact label="How you pay" testId="billing-mentorship-payment">
          {m.paymentLabel}
        </Fact>
        {m.mentor ? <Fact label="Your mentor">{m.mentor}</Fact> : null}
        {m.status === 'granted' ? (
          <Fact label="Access">{m.endsAt ? `Until ${longDate(m.endsAt)}` : 'No end date'}</Fact>
        ) : null}
        {!s && m.total !== null ? <Fact label="Paid">{formatMoney(m.paid, m.currency)}</Fact> : null}
        <Fact label="Since">{longDate(m.since)}</Fact>
      </dl>
      {s ? (
        <div className="mt-5 flex flex-col gap-4 rounded-xl border border-line p-4" data-testid="billing-schedule">
          <StepProgress
            name="Instalments paid"
            label={`${s.paid} of ${s.total} payments made`}
            percent={Math.round((s.paid / s.total) * 100)}
          />
          <dl className="grid gap-4 sm:grid-cols-3">
            <Fact label="Paid so far">{formatMoney(m.paid, m.currency)}</Fact>
            <Fact label="Next payment" testId="billing-next-instalment">
              {s.nextDueAt ? (
                <span className="inline-flex items-start gap-2">
                  <CalendarClock aria-hidden className="mt-1 size-5 shrink-0 text-muted" />
                  <span>
                    {formatMoney(s.amount, m.currency)} on {longDate(s.nextDueAt)}
                  </span>
                </span>
              ) : (
                'None: nothing left to pay'
              )}
            </Fact>
            <Fact label="Remaining" testId="billing-remaining">
              {formatMoney(s.remaining, m.currency)}
            </Fact>
          </dl>
          {s.paymentMethod ? <p className="text-muted">Charged to {s.paymentMethod}.</p> : null}
          {/* `change-card` in m.actions: the payment-recovery component mounts its Change card button here */}
        </div>
      ) : null}
      {m.status !== 'canceled' && m.status !== 'refunded' && m.status !== 'defaulted' ? (
        <Link
          to="/mentorship"
          className="mt-5 inline-block font-semibold text-accent-strong underline underline-offset-4"
        >
          Go to your mentorship
        </Link>
      ) : null}
    </Holding>
  );
}

/** The mentorship programme: how it is paid, the instalment schedule, what remains. */
export function MentorshipSection({ mentorships }: { mentorships: BillingMentorship[] }) {
  if (mentorships.length === 0) return null;
  return (
    <Section title="Mentorship">
      <ul className="flex flex-col gap-4">
        {mentorships.map((m) => (
          <MentorshipCard key={m.key} m={m} />
        ))}
      </ul>
    </Section>
  );
}
