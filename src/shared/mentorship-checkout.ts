// Mentorship checkout (docs/product/mentorship.md): prices, payment options and wording, shared by
// /mentorship/checkout and the server. No zod here: the public checkout page reads this module only, and
// so loads no zod (a public page's initial JavaScript budget: scripts/initial-js.ts). The bodies' schemas are in
// mentorship-checkout-calls.ts; mentorship.ts re-exports both. Amounts in cents.

/** The payment steps of /mentorship/checkout. */
export const MENTORSHIP_CHECKOUT_OPTIONS = ['onetime', 'onetime1600', 'onetime2600', 'onetime3900', '3', '6'] as const;
export type MentorshipCheckoutOption = (typeof MENTORSHIP_CHECKOUT_OPTIONS)[number];

/** One-time prices of POST /mentorship/create-checkout (`price`, dollars; 3200 is the default). */
export const MENTORSHIP_ONE_TIME_PRICES = [3200, 1600, 2600, 3900] as const;
export type MentorshipOneTimePrice = (typeof MENTORSHIP_ONE_TIME_PRICES)[number];
export const DEFAULT_MENTORSHIP_PRICE: MentorshipOneTimePrice = 3200;
/** 3,200 includes a 700 pay-in-full discount from the 3,900 list price */
export const MENTORSHIP_LIST_PRICE = 3900;
export const MENTORSHIP_PAY_IN_FULL_DISCOUNT = 700;

/** The PayPal instalment plans of /mentorship/checkout (POST /mentorship/payment-plan). */
export const MENTORSHIP_INSTALMENT_PLANS = {
  '3': { instalments: 3, amountCents: 1200_00, totalCents: 3600_00 },
  '6': { instalments: 6, amountCents: 650_00, totalCents: 3900_00 },
} as const;
export type MentorshipInstalmentOption = keyof typeof MENTORSHIP_INSTALMENT_PLANS;

export const onetimeOptionPrice: Record<Exclude<MentorshipCheckoutOption, '3' | '6'>, MentorshipOneTimePrice> = {
  onetime: 3200,
  onetime1600: 1600,
  onetime2600: 2600,
  onetime3900: 3900,
};

export type MentorshipCheckoutFlags = {
  price2600?: boolean;
  price3900?: boolean;
  downsell?: boolean;
  showsix?: boolean;
};

const FLAG_NAMES = ['price2600', 'price3900', 'downsell', 'showsix'] as const;
/** a flag's words in an address, as http.ts's `flag` reads a form's "1"/"0", "true"/"false", "on"/"off" or empty */
const FLAG_WORDS = new Map<string, boolean>([
  ['1', true],
  ['true', true],
  ['on', true],
  ['0', false],
  ['false', false],
  ['off', false],
  ['', false],
]);

/**
 * The flags an address sets (?price2600=1, ?downsell=0, ...): the ones present, each read as
 * mentorshipCheckoutFlagsSchema (mentorship-checkout-calls.ts) reads it; one flag it cannot read and the address sets
 * none, as that schema's safeParse fails. No zod: the public checkout page calls it (scripts/initial-js.ts).
 */
export function checkoutFlagsOf(search: URLSearchParams): MentorshipCheckoutFlags {
  const flags: MentorshipCheckoutFlags = {};
  for (const name of FLAG_NAMES) {
    const words = search.getAll(name);
    if (words.length === 0) continue;
    const value = FLAG_WORDS.get(words[words.length - 1]!);
    if (value === undefined) return {};
    flags[name] = value;
  }
  return flags;
}

/**
 * What an admin set for the checkout: the default flags, and whether a link may offer the two lower
 * prices (?price2600=1, ?downsell=1). See docs/product/mentorship-pricing.md.
 */
export type MentorshipPricingSwitches = Required<MentorshipCheckoutFlags> & {
  price2600ByLink: boolean;
  downsellByLink: boolean;
};
/** a new academy's: the $3,200 full price and the 3-payment plan, and no lower price by link */
export const DEFAULT_MENTORSHIP_PRICING: MentorshipPricingSwitches = {
  price2600: false,
  price3900: false,
  downsell: false,
  showsix: false,
  price2600ByLink: false,
  downsellByLink: false,
};

/**
 * The flags the checkout applies: the admin's defaults, with the address's own flags on top (a flag
 * the address sets, to 1 or 0, wins), except that a lower price the admin has not let links offer
 * stays off. A full price the address asks for replaces the default one.
 */
export function checkoutFlags(admin: MentorshipPricingSwitches, own: MentorshipCheckoutFlags): MentorshipCheckoutFlags {
  const allowed: MentorshipCheckoutFlags = { ...own };
  if (allowed.price2600 && !admin.price2600 && !admin.price2600ByLink) delete allowed.price2600;
  if (allowed.downsell && !admin.downsell && !admin.downsellByLink) delete allowed.downsell;
  const { price2600ByLink: _p, downsellByLink: _d, ...defaults } = admin;
  const merged: MentorshipCheckoutFlags = { ...defaults, ...allowed };
  if (allowed.price2600 && !('price3900' in allowed)) merged.price3900 = false;
  if (allowed.price3900 && !('price2600' in allowed)) merged.price2600 = false;
  return merged;
}

/** whether a one-time price may be bought: the two lower ones only while the admin offers them */
export function onetimePriceOnOffer(price: MentorshipOneTimePrice, admin: MentorshipPricingSwitches): boolean {
  if (price === 2600) return admin.price2600 || admin.price2600ByLink;
  if (price === 1600) return admin.downsell || admin.downsellByLink;
  return true;
}

/**
 * Which payment options the page offers for these flags (docs/product/mentorship.md): downsell shows only the
 * 1,600 option; otherwise the full price (3,200, or 2,600 / 3,900 when their flags are set) and the
 * 3-payment plan; showsix adds the 6-payment plan and keeps the 3-payment plan as a hidden option.
 * `hidden` options are valid when chosen (e.g. by a link) but not listed.
 */
export function mentorshipOptions(flags: MentorshipCheckoutFlags): {
  shown: MentorshipCheckoutOption[];
  hidden: MentorshipCheckoutOption[];
} {
  if (flags.downsell) return { shown: ['onetime1600'], hidden: [] };
  const onetime: MentorshipCheckoutOption = flags.price2600
    ? 'onetime2600'
    : flags.price3900
      ? 'onetime3900'
      : 'onetime';
  if (flags.showsix) return { shown: [onetime, '6'], hidden: ['3'] };
  return { shown: [onetime, '3'], hidden: [] };
}

/** /mentorship/stripe/{payment}: the card checkout amounts (docs/product/mentorship.md). */
export const MENTORSHIP_CARD_PAYMENTS = {
  '3200': { label: 'Pay in full', amountCents: 3200_00, instalments: 1, totalCents: 3200_00 },
  '2700': { label: 'Black Friday: pay in full', amountCents: 2700_00, instalments: 1, totalCents: 2700_00 },
  '1800': { label: '2 monthly payments', amountCents: 1800_00, instalments: 2, totalCents: 3600_00 },
  '1300': { label: '3 monthly payments', amountCents: 1300_00, instalments: 3, totalCents: 3900_00 },
  '650': { label: '6 monthly payments', amountCents: 650_00, instalments: 6, totalCents: 3900_00 },
  finance: { label: 'Finance with monthly payments', amountCents: 3900_00, instalments: 1, totalCents: 3900_00 },
} as const;
export type MentorshipCardPayment = keyof typeof MENTORSHIP_CARD_PAYMENTS;
export const MENTORSHIP_CARD_PAYMENT_KEYS = Object.keys(MENTORSHIP_CARD_PAYMENTS) as MentorshipCardPayment[];

/** the card provider's return address after confirming set-up */
export const mentorshipChargeUrl = (payment: MentorshipCardPayment) => `/mentorship/stripe/charge?payment=${payment}`;

/** PayPal buttons are initialised this long after display (docs/product/mentorship.md) */
export const PAYPAL_BUTTONS_DELAY_MS = 1000;

/** A missed instalment keeps access this many days while the provider retries; then access ends. */
export const MENTORSHIP_GRACE_DAYS = 7;

export const MENTORSHIP_MESSAGES = {
  /** docs/product/mentorship.md */
  instalmentPlanFailed: 'There was an error processing your installment plan. Please try again.',
  checkoutLinkFailed: 'There was an error getting the PayPal checkout link. Please try again.',
  clientSecretFailed: 'There was an error retrieving the Stripe client secret. Please refresh this page and try again.',
  registrationFailed: 'There was an error processing your registration. Please refresh this page and try again.',
  /** ours */
  priceNotOffered: 'This price is not on offer at the moment. Please choose another payment option.',
  alreadyEnrolled: 'You are already a mentorship student. Your mentor is waiting for you in the mentorship area.',
  paymentPending: 'Your payment is being processed. This page will update when it completes.',
  mentorshipOnly: 'This page is for mentorship students. Join the mentorship programme to open it.',
  notYourStudent: 'You can only see your own mentorship records.',
} as const;

export const MENTORSHIP_CHECKOUT_MESSAGES = {
  checkoutFailed: 'We could not open the payment page. Please try again.',
  checkoutCancelled: 'The payment was cancelled. You have not been charged.',
  notApproved: 'The PayPal subscription has not been approved yet. Please approve it at PayPal.',
  authenticationNeeded: 'Your bank needs to confirm this payment. Please try again or use another card.',
  paymentFailed: 'The payment did not go through, and you have not been charged. Please try again.',
} as const;
