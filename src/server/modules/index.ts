import type { FastifyPluginAsync } from 'fastify';
import { systemRoutes } from './system/index.ts';
import { authRoutes } from './auth/index.ts';
import { notificationRoutes } from './notifications/index.ts';
import { liveRoutes } from './live/index.ts';
import { learningRoutes } from './learning/index.ts';
import { journalRoutes } from './journal/index.ts';
import { profileRoutes } from './profile/index.ts';
import { contactRoutes } from './contact/index.ts';
import { rewardsRoutes } from './rewards/index.ts';
import { diagnosticRoutes } from './diagnostic/index.ts';
import { songmapperRoutes } from './songmapper/index.ts';
import { metronomeRoutes } from './metronome/index.ts';
import { postRoutes } from './posts/index.ts';
import { forumRoutes } from './forums/index.ts';
import { wallRoutes } from './wall/index.ts';
import { reportRoutes } from './reports/index.ts';
import { paymentRoutes } from './payments/index.ts';
import { checkoutRoutes } from './checkout/index.ts';
import { productRoutes } from './products/index.ts';
import { billingRoutes } from './billing/index.ts';
import { mentorshipCheckoutRoutes } from './mentorship-checkout/index.ts';
import { mentorshipRoutes } from './mentorship/index.ts';
import { practicePlanRoutes } from './practice-plan/index.ts';
import { uploadRoutes } from './uploads/index.ts';
import { videoRoutes } from './videos/index.ts';
import { adminRoutes } from './admin/index.ts';
import { adminContentRoutes } from './admin-content/index.ts';
import { adminCommunityRoutes } from './admin-community/index.ts';
import { adminCommerceRoutes } from './admin-commerce/index.ts';
import { adminMembersRoutes } from './admin-members/index.ts';
import { receiptRoutes } from './receipts/index.ts';
import { mailRoutes } from './mail/index.ts';

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
