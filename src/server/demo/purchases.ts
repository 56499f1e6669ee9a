import { DEFAULT_CHECKOUT, SANDBOX_CARDS } from '#shared/commerce';
import type { AppDeps } from '#server/deps';
import { mentorships } from '#server/db/schema/index';
import type { SandboxProvider } from '#server/modules/payments/index';
import type { DemoPeople } from './community.ts';

/**
 * The demo's paying people pay the way a real buyer does, through the sandbox: the member buys the
 * monthly membership by card (a subscription, its first invoice, the saved card), the student buys
 * the mentorship in 6 monthly card payments (the first one paid, five to come). The billing page,
 * the cancel and pause flows, the admin console's orders and refunds then work on them as on
 * anyone's. With a real card provider nothing is charged: they are granted access instead.
 */
export async function seedPurchases(
  deps: AppDeps,
  { admin, member, student }: Pick<DemoPeople, 'admin' | 'member' | 'student'>,
) {
  const { services } = deps;
  const card = services.payments.providerFor('card');
  if (card.name !== 'sandbox') return grantInstead(deps, { admin, member, student });
  const sandbox = card as unknown as SandboxProvider;
  const cardOf = async (user: { email: string; name: string }, key: string) => {
    const { clientSecret } = await sandbox.createCardSetup({
      email: user.email,
      name: user.name,
      idempotencyKey: `demo:${key}:setup`,
      metadata: {},
    });
    const confirmed = await sandbox.confirmSetup({
      clientSecret,
      number: SANDBOX_CARDS.succeeds,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 4,
      cvc: '123',
      name: user.name,
    });
    return confirmed.paymentMethod;
  };

  const buyer = await services.users.toAuthUser((await services.users.findById(member.id))!);
  const paymentMethod = await cardOf(buyer, 'member');
  const key = `demo:member:${member.id}:monthly`;
  const { order } = await services.payments.startOrder(
    buyer,
    {
      kind: 'membership',
      productSlug: DEFAULT_CHECKOUT.slug,
      plan: 'monthly',
      amountCents: DEFAULT_CHECKOUT.monthlyPriceCents,
      provider: card.name,
      affiliate: null,
      idempotencyKey: key,
      metadata: { paymentType: 'card', payment_method_id: paymentMethod },
    },
    { hold: true },
  );
  const state = await sandbox.subscribeCard({
    email: buyer.email,
    name: buyer.name,
    paymentMethod,
    priceCents: DEFAULT_CHECKOUT.monthlyPriceCents,
    interval: 'month',
    trialDays: 0,
    description: 'Backbeat membership (Monthly)',
    idempotencyKey: key,
    metadata: { orderId: String(order.id), userId: String(buyer.id), checkout: DEFAULT_CHECKOUT.slug, plan: 'monthly' },
  });
  await services.payments.recordSubscription(buyer.id, order.id, DEFAULT_CHECKOUT.slug, card.name, state);

  const studentUser = await services.users.toAuthUser((await services.users.findById(student.id))!);
  await deps.services.mentorshipCheckout.checkout.chargeCard(studentUser, {
    payment: '650',
    paymentMethod: await cardOf(studentUser, 'student'),
    clientKey: `demo:student:${student.id}`,
  });
}

/** a real card provider: access without a charge, as the demo always had it */
async function grantInstead(
  { db, services }: AppDeps,
  { admin, member, student }: Pick<DemoPeople, 'admin' | 'member' | 'student'>,
) {
  await services.users.grantEntitlement(member.id, 'membership', 'demo');
  await services.users.grantEntitlement(student.id, 'mentorship', 'demo');
  await db
    .insert(mentorships)
    .values({ studentId: student.id, mentorId: admin.id, option: 'onetime', status: 'active' })
    .onConflictDoNothing();
}
