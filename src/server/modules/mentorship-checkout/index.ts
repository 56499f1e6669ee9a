/** The mentorship-checkout module's front door: what other modules and the app may use of it. */
export { mentorshipCheckoutOf, mentorshipCheckoutRoutes } from './routes.ts';
