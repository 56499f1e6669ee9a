/** The mentorship-checkout module's front door: what other modules and the app may use of it. */
export { mentorshipCheckoutRoutes } from './routes.ts';
export { createMentorshipCheckout, type MentorshipCheckoutModule } from './module.ts';
