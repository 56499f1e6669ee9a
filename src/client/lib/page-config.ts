import { PAGE_CONFIG_ELEMENT_ID, pageConfigSchema, type PageConfig } from '#shared/page-config';

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
  payments: { card: 'sandbox', paypal: 'sandbox', stripePublishableKey: null },
};

let cached: PageConfig | null = null;

/** The page-wide configuration the server wrote into this page (a visitor's when absent). */
export function pageConfig(): PageConfig {
  if (cached) return cached;
  const element = typeof document !== 'undefined' ? document.getElementById(PAGE_CONFIG_ELEMENT_ID) : null;
  try {
    const parsed = pageConfigSchema.safeParse(JSON.parse(element?.textContent || '{}'));
    cached = parsed.success ? parsed.data : VISITOR;
  } catch {
    cached = VISITOR;
  }
  return cached;
}

/** tests only */
export function setPageConfig(config: Partial<PageConfig> | null) {
  cached = config ? { ...VISITOR, ...config } : null;
}
