import { useRef, useState, type FormEvent } from 'react';
import { COMMERCE_MESSAGES, type PaymentType } from '#shared/commerce';
import { PRODUCT_MESSAGES, type PaypalOutcome, type Tier } from '#shared/products';
import { ApiError } from '#client/lib/api.ts';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { useCardForm } from '#client/components/payments/card-form.tsx';
import { navigate, productApi } from './api/products.ts';

const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

const PAYPAL_MESSAGES: Record<PaypalOutcome, string> = {
  canceled: COMMERCE_MESSAGES.paymentCanceled,
  failed: PRODUCT_MESSAGES.paypalFailed,
  sold_out: COMMERCE_MESSAGES.soldOut,
  owned: PRODUCT_MESSAGES.alreadyOwned,
};

/**
 * The payment of a product tier (docs/product/course-products.md): by card (holder, client secret,
 * the card's confirmation, then the order) or PayPal. The server prices the order; the key makes a
 * double submit one order, and a failed attempt takes a new key.
 */
export function useProductPayment({
  tier,
  affiliate,
  paypalOutcome,
  holder: initialHolder,
}: {
  tier: Tier;
  affiliate: string | null;
  /** what PayPal answered when it sent the buyer back here */
  paypalOutcome: PaypalOutcome | null;
  /** the card holder's name to start with: the account's */
  holder: string;
}) {
  const [type, setType] = useState<PaymentType>('card');
  const [holder, setHolder] = useState(initialHolder);
  const feedback = useFormFeedback();
  const setCardError = (message: string) => feedback.show({ card: message }, null);
  const [paypalError, setPaypalError] = useState<string | null>(paypalOutcome ? PAYPAL_MESSAGES[paypalOutcome] : null);
  const [loadingPayment, setLoadingPayment] = useState(false);
  const key = useRef(newKey());
  const card = useCardForm();

  const fail = (err: unknown, where: 'card' | 'paypal', fallback: string) => {
    const message = err instanceof ApiError ? (err.firstError([where]) ?? err.message) : fallback;
    if (where === 'card') setCardError(message);
    else setPaypalError(message);
    // a new attempt is a new order
    key.current = newKey();
    setLoadingPayment(false);
  };

  const payByCard = async () => {
    if (!holder.trim()) {
      setLoadingPayment(false);
      return feedback.show({ card_holder: COMMERCE_MESSAGES.cardHolderRequired }, null);
    }
    let secret: string;
    try {
      secret = (await productApi.clientSecret(tier.slug)).clientSecret;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) return fail(err, 'card', err.message);
      setLoadingPayment(false);
      return window.alert(COMMERCE_MESSAGES.clientSecretFailed);
    }
    const confirmed = await card.confirmSetup(secret, { name: holder.trim() });
    if ('error' in confirmed) return fail(null, 'card', confirmed.error);
    try {
      const { url } = await productApi.payByCard(tier.slug, {
        stripeToken: confirmed.paymentMethod,
        affiliate,
        idempotency_key: key.current,
      });
      navigate.to(url);
    } catch (err) {
      fail(err, 'card', COMMERCE_MESSAGES.cardDeclined);
    }
  };

  const payByPaypal = async () => {
    try {
      const { url } = await productApi.payByPaypal(tier.slug, { affiliate, idempotency_key: key.current });
      navigate.to(url);
    } catch (err) {
      fail(err, 'paypal', COMMERCE_MESSAGES.paypalLinkFailed);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (loadingPayment) return;
    feedback.clear();
    setPaypalError(null);
    setLoadingPayment(true);
    if (type === 'card') await payByCard();
    else await payByPaypal();
  };

  const changeHolder = (value: string) => {
    setHolder(value);
    feedback.edited('card_holder');
  };

  return { type, setType, holder, changeHolder, feedback, paypalError, loadingPayment, card, submit };
}
