import { PageTitle } from './common.tsx';

/** Double-kick and course registration and their checkouts (issue 7). */
export const DoubleKickRegisterPage = () => <PageTitle title="Double Kick Mastery" />;
export const DoubleKickCheckoutPage = () => <PageTitle title="Checkout" />;
export const CourseRegisterPage = () => <PageTitle title="Course registration" />;
export const CourseCheckoutPage = () => <PageTitle title="Checkout" />;
