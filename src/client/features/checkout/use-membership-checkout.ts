import { useRef, useState, type FormEvent } from 'react';
import { COMMERCE_MESSAGES as M, DEFAULT_PLAN, type MembershipPlan } from '#shared/commerce';
import { checkoutErrors, type CheckoutAnswer, type CheckoutForm } from '#shared/checkout';
import { ApiError, NETWORK_ERROR } from '#client/lib/api.ts';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import {
  fetchClientSecret,
  navigate,
  newAttemptKey,
  payByCard,
  paypalApprovalUrl,
  paypalLifetimeCheckout,
  registerGuest,
} from './api/checkout.ts';
import type { CardHandle } from './components/card-field.tsx';

/** a failed registration's own message when no field is wrong: the rate limit's sentence, else the general one */
const registrationFailed = (err: unknown) =>
  err instanceof ApiError && err.status === 429 ? err.message : M.registrationFailed;

/** the form field each value of the checkout lives in (the names its messages use) */
const FIELD_NAMES: Record<keyof CheckoutForm, string> = {
  plan: 'plan',
  paymentType: 'payment_type',
  name: 'name',
  email: 'email',
  emailConfirmation: 'email_confirmation',
  password: 'password',
  cardHolder: 'card_holder',
  terms: 'terms',
};

const PAYPAL_FLAGS: Record<string, string> = { cancelled: M.paymentCanceled, failed: M.paypalLinkFailed };

/**
 * The membership checkout's state and its submit (docs/product/membership-checkout.md): a guest
 * registers first, then pays by card or PayPal; `loadingPayment` blocks a second submit. Each attempt
 * has its idempotency key; a refused one starts a new attempt (new key, new client secret).
 */
export function useMembershipCheckout(data: CheckoutAnswer, slug: string, search: URLSearchParams) {
  const flag = search.get('paypal');
  const initialPlan =
    (['monthly', 'yearly', 'lifetime'] as const).find((x) => x === search.get('plan')) ?? DEFAULT_PLAN;
  const [form, setForm] = useState<CheckoutForm>({
    plan: initialPlan,
    paymentType: flag ? 'paypal' : 'card',
    name: '',
    email: '',
    emailConfirmation: '',
    password: '',
    cardHolder: data.user?.name ?? '',
    terms: false,
  });
  const [registered, setRegistered] = useState<{ email: string } | null>(data.user ? { email: data.user.email } : null);
  const guest = registered === null;
  const feedback = useFormFeedback();
  const [paypalError, setPaypalError] = useState<string | null>(flag ? (PAYPAL_FLAGS[flag] ?? null) : null);
  const [loadingPayment, setLoadingPayment] = useState(false);
  const busy = useRef(false);
  const attemptKey = useRef(newAttemptKey());
  const clientSecret = useRef<string | null>(null);
  const card = useRef<CardHandle>(null);

  const set = <K extends keyof CheckoutForm>(key: K, value: CheckoutForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    feedback.edited(FIELD_NAMES[key]);
  };
  /** a card problem: under the card, with focus on it */
  const cardError = (message: string) => feedback.show({ card: message }, null);

  /** a new client secret for the card form (first use, and after every card failure) */
  async function loadClientSecret(): Promise<string | null> {
    try {
      clientSecret.current = (await fetchClientSecret()).clientSecret;
      return clientSecret.current;
    } catch {
      clientSecret.current = null;
      cardError(M.clientSecretFailed);
      return null;
    }
  }

  /** a refused attempt: the next try is a new attempt (new key, new client secret) */
  function failedAttempt() {
    attemptKey.current = newAttemptKey();
    clientSecret.current = null;
    void loadClientSecret();
  }

  async function payWithCard(plan: MembershipPlan): Promise<boolean> {
    const secret = clientSecret.current ?? (await loadClientSecret());
    if (!secret) return false;
    const handle = card.current;
    if (!handle) return false;
    const confirmed = await handle.confirmSetup(secret, { name: form.cardHolder.trim() });
    if ('error' in confirmed) {
      cardError(confirmed.error);
      failedAttempt();
      return false;
    }
    try {
      const res = await payByCard({
        checkout: slug,
        stripeToken: confirmed.paymentMethod,
        plan,
        idempotency_key: attemptKey.current,
      });
      if ('requires_action' in res) {
        if (res.url) {
          navigate.to(res.url);
          return true;
        }
        cardError('Your bank needs to confirm this payment. Please try again.');
        return false;
      }
      navigate.to(res.url);
      return true;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 402 || err.errors?.card)) {
        cardError(err.firstError(['card']) ?? err.message);
        failedAttempt();
      } else if (err instanceof ApiError) {
        // the plan's message under the plan; one about the checkout or the card token is the form's own
        feedback.fail(err, err.firstError(['checkout', 'stripeToken']) ?? err.message);
        if (err.status >= 500) failedAttempt();
      } else {
        cardError(NETWORK_ERROR);
      }
      return false;
    }
  }

  async function payWithPaypal(plan: MembershipPlan): Promise<boolean> {
    try {
      const res =
        plan === 'lifetime'
          ? await paypalLifetimeCheckout({ checkout: slug, idempotency_key: attemptKey.current })
          : await paypalApprovalUrl({ plan, checkout: slug, idempotency_key: attemptKey.current });
      navigate.to(res.url);
      return true;
    } catch (err) {
      setPaypalError(
        err instanceof ApiError && err.status < 500
          ? (err.firstError(['plan', 'checkout']) ?? err.message)
          : M.paypalLinkFailed,
      );
      attemptKey.current = newAttemptKey();
      return false;
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy.current || loadingPayment) return;
    feedback.clear();
    setPaypalError(null);
    const wrong = checkoutErrors(form, guest);
    if (wrong.length) {
      const fields: Record<string, string> = {};
      for (const { field, message } of wrong) fields[field] ??= message;
      feedback.show(fields, null);
      return;
    }
    busy.current = true;
    setLoadingPayment(true);
    let leaving = false;
    try {
      if (guest) {
        try {
          const user = await registerGuest({
            name: form.name.trim(),
            email: form.email.trim(),
            email_confirmation: form.emailConfirmation.trim(),
            password: form.password,
            checkout_slug: slug,
          });
          setRegistered({ email: user.email });
          if (!form.cardHolder.trim()) set('cardHolder', user.name);
        } catch (err) {
          feedback.fail(err, registrationFailed(err));
          return;
        }
      }
      const plan = form.plan as MembershipPlan;
      leaving = form.paymentType === 'card' ? await payWithCard(plan) : await payWithPaypal(plan);
    } finally {
      busy.current = false;
      // leaving for the order page or PayPal: keep the button blocked until the page goes
      if (!leaving) setLoadingPayment(false);
    }
  }

  return { form, set, registered, feedback, paypalError, loadingPayment, card, submit };
}
