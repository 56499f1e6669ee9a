import type { FastifyPluginAsync } from 'fastify';
import { systemRoutes } from './system/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { notificationRoutes } from './notifications/routes.ts';
import { liveRoutes } from './live/routes.ts';
import { learningRoutes } from './learning/routes.ts';
import { journalRoutes } from './journal/routes.ts';
import { profileRoutes } from './profile/routes.ts';
import { contactRoutes } from './contact/routes.ts';
import { rewardsRoutes } from './rewards/routes.ts';
import { diagnosticRoutes } from './diagnostic/routes.ts';
import { songmapperRoutes } from './songmapper/routes.ts';
import { metronomeRoutes } from './metronome/routes.ts';
import { postRoutes } from './posts/routes.ts';
import { forumRoutes } from './forums/routes.ts';
import { wallRoutes } from './wall/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { paymentRoutes } from './payments/routes.ts';
import { checkoutRoutes } from './checkout/routes.ts';
import { productRoutes } from './products/routes.ts';
import { billingRoutes } from './billing/routes.ts';
import { mentorshipCheckoutRoutes } from './mentorship-checkout/routes.ts';
import { mentorshipRoutes } from './mentorship/routes.ts';
import { practicePlanRoutes } from './practice-plan/routes.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { videoRoutes } from './videos/routes.ts';
import { adminRoutes } from './admin/routes.ts';
import { adminContentRoutes } from './admin-content/routes.ts';
import { adminCommunityRoutes } from './admin-community/routes.ts';
import { adminCommerceRoutes } from './admin-commerce/routes.ts';
import { adminMembersRoutes } from './admin-members/routes.ts';
import { receiptRoutes } from './receipts/routes.ts';
import { mailRoutes } from './mail/routes.ts';

/** Every feature's routes: one line per feature. */
export const modules: FastifyPluginAsync[] = [
  systemRoutes,
  authRoutes,
  notificationRoutes,
  liveRoutes,
  learningRoutes,
  journalRoutes,
  profileRoutes,
  contactRoutes,
  rewardsRoutes,
  diagnosticRoutes,
  songmapperRoutes,
  metronomeRoutes,
  postRoutes,
  forumRoutes,
  wallRoutes,
  reportRoutes,
  paymentRoutes,
  checkoutRoutes,
  productRoutes,
  billingRoutes,
  mentorshipCheckoutRoutes,
  mentorshipRoutes,
  practicePlanRoutes,
  uploadRoutes,
  videoRoutes,
  adminRoutes,
  adminContentRoutes,
  adminCommunityRoutes,
  adminCommerceRoutes,
  adminMembersRoutes,
  receiptRoutes,
  mailRoutes,
];
