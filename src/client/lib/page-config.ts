import type { PageConfig } from '#shared/page-config';

// the id of the JSON block (#shared/page-config's PAGE_CONFIG_ELEMENT_ID; not imported so the entry chunk carries no zod)
const PAGE_CONFIG_ELEMENT_ID = 'page-config';

const VISITOR: PageConfig = {
  admin: false,
  authId: null,
  authName: null,
  authAvatarUrl: null,
  authProfileUrl: null,
  authEmail: null,
  entitlements: [],
  fileStorageBaseUrl: '/files',
  csrfToken: '',
  error: null,
  dev: false,
  payments: { card: 'sandbox', paypal: 'sandbox', stripePublishableKey: null, testMode: false },
};

let cached: PageConfig | null = null;

const isString = (v: unknown): v is string => typeof v === 'string';
const orNull = (check: (v: unknown) => boolean) => (v: unknown) => v === null || check(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The shape of #shared/page-config's pageConfigSchema, checked by hand (zod stays out of the page frame's code). */
function isPageConfig(v: unknown): v is PageConfig {
  if (!isRecord(v) || !isRecord(v.payments)) return false;
  const { payments, error } = v;
  return (
    typeof v.admin === 'boolean' &&
    orNull((x) => typeof x === 'number')(v.authId) &&
    [v.authName, v.authAvatarUrl, v.authProfileUrl, v.authEmail].every(orNull(isString)) &&
    Array.isArray(v.entitlements) &&
    v.entitlements.every(isString) &&
    isString(v.fileStorageBaseUrl) &&
    isString(v.csrfToken) &&
    (error === null || (isRecord(error) && typeof error.status === 'number' && isString(error.message))) &&
    typeof v.dev === 'boolean' &&
    (payments.card === 'sandbox' || payments.card === 'stripe') &&
    (payments.paypal === 'sandbox' || payments.paypal === 'paypal') &&
    orNull(isString)(payments.stripePublishableKey) &&
    typeof payments.testMode === 'boolean'
  );
}

/** The page-wide configuration the server wrote into this page (a visitor's when absent). */
export function pageConfig(): PageConfig {
  if (cached) return cached;
  const element = typeof document !== 'undefined' ? document.getElementById(PAGE_CONFIG_ELEMENT_ID) : null;
  try {
    const parsed: unknown = JSON.parse(element?.textContent || '{}');
    cached = isPageConfig(parsed) ? parsed : VISITOR;
  } catch {
    cached = VISITOR;
  }
  return cached;
}

const listeners = new Set<() => void>();

/**
 * Who is here changed without a page load (a registration inside a checkout signs the new member in):
 * the frame's header and menus re-render for the new member at once.
 */
export function updatePageConfig(change: Partial<PageConfig>) {
  cached = { ...pageConfig(), ...change };
  for (const l of listeners) l();
}

/** Listen for `updatePageConfig` (useSyncExternalStore's subscribe). */
export function subscribePageConfig(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** tests only */
export function setPageConfig(config: Partial<PageConfig> | null) {
  cached = config ? { ...VISITOR, ...config } : null;
}
