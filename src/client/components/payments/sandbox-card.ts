import { preloadableLazy } from '#client/lib/preloadable-lazy.ts';

/**
 * The sandbox's card fields (sandbox-card-fields.tsx), as card-form.tsx renders them on a server whose
 * card provider is the sandbox. Their code loads on such a server only: a real academy's checkout, on
 * Stripe, never downloads them. `preload()` fetches it ahead of the first render (router.tsx's checkoutPage).
 */
export const SandboxCardFields = preloadableLazy(() =>
  import('./sandbox-card-fields.tsx').then((m) => ({ default: m.SandboxCardFields })),
);
