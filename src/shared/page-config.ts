import { z } from './zod.ts';

/**
 * The page-wide configuration the server writes into every HTML page (docs/product/pages-and-http.md)
 * as a JSON data block `<script type="application/json" id="page-config">`.
 */
export const pageConfigSchema = z.object({
  admin: z.boolean(),
  authId: z.number().nullable(),
  authName: z.string().nullable(),
  authAvatarUrl: z.string().nullable(),
  authProfileUrl: z.string().nullable(),
  authEmail: z.string().nullable(),
  /** entitlements the signed-in user holds: membership, mentorship */
  entitlements: z.array(z.string()),
  fileStorageBaseUrl: z.string(),
  csrfToken: z.string(),
  /** set when the server answered this navigation with an error page */
  error: z.object({ status: z.number(), message: z.string() }).nullable(),
  /** development-only tools (mail outbox) are available */
  dev: z.boolean(),
  /**
   * the payment providers in use: the card form renders the sandbox's fields or Stripe Elements;
   * `testMode` is a production server taking payments on the sandbox, which checkout pages say
   */
  payments: z.object({
    card: z.enum(['sandbox', 'stripe']),
    paypal: z.enum(['sandbox', 'paypal']),
    stripePublishableKey: z.string().nullable(),
    testMode: z.boolean(),
  }),
});
export type PageConfig = z.infer<typeof pageConfigSchema>;
export const PAGE_CONFIG_ELEMENT_ID = 'page-config';
