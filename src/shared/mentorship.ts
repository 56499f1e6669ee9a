// Mentorship (docs/product/mentorship.md): prices, payment options, wording and the shapes of the
// practice plan and accountability links, shared by the pages and the server. Amounts in cents.
// One import path for the whole domain; each part lives in its own file.

export * from './mentorship-checkout.ts';
export * from './mentorship-checkout-calls.ts';
export * from './mentorship-practice-plan.ts';
export * from './mentorship-accountability.ts';
export * from './mentorship-area.ts';
