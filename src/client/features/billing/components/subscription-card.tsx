import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowUpCircle, CreditCard, PauseCircle } from 'lucide-react';
import {
  BILLING_MESSAGES,
  longDate,
  MEMBERSHIP_STATUS_LABEL,
  type BillingMembership,
  type BillingSubscription,
} from '#shared/billing';
import { formatMoney } from '#shared/money';
import { errorMessage } from '#client/lib/api.ts';
import { openModal } from '#client/components/ui/modal.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { BILLING_KEY, newIdempotencyKey, resumeCall } from '../api/billing.ts';
import { CARD_CANCEL_MODAL, CardCancelModal } from './card-cancel-modal.tsx';
import { PAYPAL_CANCEL_MODAL, PaypalCancelModal } from './paypal-cancel-modal.tsx';
import { UPGRADE_MODAL, upgradeChoices } from './upgrade-modal.tsx';
import { Fact, StatusBadge } from './section.tsx';
import { UpdateCard } from './past-due.tsx';

/**
 * A bought monthly or yearly membership: plan, price, next renewal (or when it ends), the card, and
 * what the server says can be done now (`membership.actions`): upgrade, cancel or pause once, resume.
 */
export function SubscriptionCard({ sub, membership }: { sub: BillingSubscription; membership: BillingMembership }) {
  const qc = useQueryClient();
  const [resuming, setResuming] = useState(false);
  const [changingCard, setChangingCard] = useState(false);
  const changeCard = useRef<HTMLButtonElement>(null);
  const can = (a: BillingMembership['actions'][number]) => membership.actions.includes(a);
  const paused = membership.status === 'paused';
  const ending = membership.status === 'ending';
  const cancelModal = sub.provider === 'paypal' ? PAYPAL_CANCEL_MODAL : CARD_CANCEL_MODAL;
  async function resume() {
    setResuming(true);
    try {
      toast((await resumeCall(newIdempotencyKey())).message);
      await qc.invalidateQueries({ queryKey: BILLING_KEY });
    } catch (err) {
      toast(errorMessage(err, ['subscription', 'payment']), 'danger');
    } finally {
      setResuming(false);
    }
  }
  const tone = membership.status === 'past_due' ? 'danger' : paused || ending ? 'muted' : 'good';
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-2">
        <Fact label="Plan" testId="billing-plan">
          {membership.title} <StatusBadge tone={tone}>{MEMBERSHIP_STATUS_LABEL[membership.status]}</StatusBadge>
        </Fact>
        <Fact label="Price" testId="billing-price">
          {formatMoney(sub.price, membership.currency)} a {sub.cycle}
          {sub.discount ? <span className="block text-sm font-medium text-accent-strong">{sub.discount}</span> : null}
        </Fact>
        <Fact label={paused ? 'Status' : ending ? 'Access' : 'Next billing date'} testId="billing-next">
          {paused
            ? 'Paused'
            : ending
              ? `Ends on ${longDate(membership.endsAt ?? sub.nextBillingDate)}`
              : longDate(membership.renewsAt ?? sub.nextBillingDate)}
        </Fact>
        <Fact label="Payment method" testId="billing-method">
          <span className="inline-flex items-center gap-2">
            <CreditCard aria-hidden className="size-5 shrink-0 text-muted" />
            {membership.paymentMethod || (sub.provider === 'paypal' ? 'PayPal' : 'Card')}
          </span>
        </Fact>
      </dl>
      {paused ? (
        <div className="mt-5 flex flex-col gap-3 rounded-xl bg-surface-2 p-4 sm:flex-row sm:items-center">
          <PauseCircle aria-hidden className="size-6 shrink-0 text-muted" />
          <p className="flex-1">{BILLING_MESSAGES.pause}</p>
          {can('resume') ? (
            <Button onClick={() => void resume()} disabled={resuming}>
              {resuming ? 'Resuming…' : 'Resume membership'}
            </Button>
          ) : null}
        </div>
      ) : null}
      {sub.pauseUsed && !paused && !ending ? (
        <p data-testid="billing-pause-used" className="mt-5 flex items-start gap-2 text-muted">
          <PauseCircle aria-hidden className="mt-0.5 size-5 shrink-0" />
          {BILLING_MESSAGES.pauseUsedNote}
        </p>
      ) : null}
      {can('upgrade') || can('cancel') ? (
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          {can('upgrade') && upgradeChoices(sub).length > 0 ? (
            <Button onClick={() => openModal(UPGRADE_MODAL)}>
              <span className="inline-flex items-center gap-2">
                <ArrowUpCircle aria-hidden className="size-5" /> Upgrade
              </span>
            </Button>
          ) : null}
          {can('change-card') && sub.provider === 'card' && sub.status !== 'past_due' ? (
            <Button
              ref={changeCard}
              variant="secondary"
              aria-expanded={changingCard}
              onClick={() => setChangingCard(true)}
            >
              <span className="inline-flex items-center gap-2">
                <CreditCard aria-hidden className="size-5" /> Change card
              </span>
            </Button>
          ) : null}
          {can('cancel') ? (
            <Button variant={paused ? 'ghost' : 'secondary'} onClick={() => openModal(cancelModal)}>
              {can('pause') ? 'Cancel or pause membership' : 'Cancel membership'}
            </Button>
          ) : null}
        </div>
      ) : null}
      {changingCard ? (
        <UpdateCard
          amount={null}
          onCancel={() => {
            // the card's form leaves with the focus it had: back to the button that opened it
            changeCard.current?.focus();
            setChangingCard(false);
          }}
        />
      ) : null}
      {sub.provider === 'paypal' ? <PaypalCancelModal sub={sub} /> : <CardCancelModal sub={sub} />}
    </>
  );
}
