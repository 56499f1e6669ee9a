import { Gift, Infinity as InfinityIcon } from 'lucide-react';
import { JOIN_URL } from '#shared/commerce';
import { longDate, MEMBERSHIP_STATUS_LABEL, type BillingMembership, type BillingSubscription } from '#shared/billing';
import { formatMoney } from '#shared/money';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Fact, Holding, Section, StatusBadge } from './section.tsx';
import { SubscriptionCard } from './subscription-card.tsx';

function LifetimeCard({ m }: { m: BillingMembership }) {
  return (
    <>
      <p className="flex items-center gap-3 text-lg font-semibold" data-testid="billing-lifetime">
        <InfinityIcon aria-hidden className="size-7 shrink-0 text-accent" /> Lifetime membership: you will never be
        billed again.
      </p>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        {m.price !== null ? <Fact label="Paid once">{formatMoney(m.price, m.currency)}</Fact> : null}
        <Fact label="Member since">{longDate(m.since)}</Fact>
        {m.paymentMethod ? <Fact label="Payment method">{m.paymentMethod}</Fact> : null}
      </dl>
    </>
  );
}

function GrantedCard({ m }: { m: BillingMembership }) {
  return (
    <div data-testid="billing-granted">
      <p className="flex items-center gap-3 text-lg font-semibold">
        <Gift aria-hidden className="size-6 shrink-0 text-accent" />
        <span>
          {m.title} <StatusBadge tone="good">{MEMBERSHIP_STATUS_LABEL.granted}</StatusBadge>
        </span>
      </p>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        <Fact label="Granted by">{m.grantedBy ?? 'the Backbeat team'}</Fact>
        <Fact label="Access" testId="billing-granted-end">
          {m.endsAt ? `Until ${longDate(m.endsAt)}` : 'No end date'}
        </Fact>
      </dl>
      <p className="mt-3 text-muted">Nothing is charged for this membership.</p>
    </div>
  );
}

/**
 * Every membership the member has: the subscription they pay for (with its actions), a lifetime
 * purchase, access granted to them. With none, the way to the plans.
 */
export function MembershipsSection({
  memberships,
  subscription,
}: {
  memberships: BillingMembership[];
  subscription: BillingSubscription | null;
}) {
  const title = memberships.length > 1 ? 'Your memberships' : 'Your membership';
  if (memberships.length === 0)
    return (
      <Section title={title}>
        <p className="mb-4 text-muted">You do not have a membership yet.</p>
        <a href={JOIN_URL} className={buttonClass('primary')}>
          See membership plans
        </a>
      </Section>
    );
  const card = (m: BillingMembership) =>
    m.source === 'subscription' && subscription && subscription.id === m.subscriptionId ? (
      <SubscriptionCard sub={subscription} membership={m} />
    ) : m.source === 'lifetime' ? (
      <LifetimeCard m={m} />
    ) : (
      <GrantedCard m={m} />
    );
  return (
    <Section title={title} testId="billing-memberships">
      {memberships.length === 1 ? (
        card(memberships[0]!)
      ) : (
        <ul className="flex flex-col gap-4">
          {memberships.map((m) => (
            <Holding key={m.key}>{card(m)}</Holding>
          ))}
        </ul>
      )}
    </Section>
  );
}
