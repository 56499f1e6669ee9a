import { PageTitle } from './common.tsx';

/** Membership checkout (/join, /join/:slug) and the order confirmation (/order) (issue 7). */
export const JoinPage = () => <PageTitle title="Join" />;
export const OrderPage = () => <PageTitle title="Your order" />;
