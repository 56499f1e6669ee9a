import { useSearchParams } from 'react-router';
import { COURSE_LEVELS, type CourseLevel } from '#shared/commerce';
import {
  PAYPAL_OUTCOMES,
  PRODUCT_MESSAGES,
  cleanAffiliate,
  courseCheckoutUrl,
  doubleKickCheckoutUrl,
  type PaypalOutcome,
} from '#shared/products';
import { pageConfig } from '#client/lib/page-config.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useCourseProduct, useDoubleKick } from '#client/features/products/api/products.ts';
import { ProductCheckout } from '#client/features/products/components/product-checkout.tsx';
import { TierPicker } from '#client/features/products/components/tier-picker.tsx';
import { PageTitle } from './common.tsx';

/** Double-kick and course registration and their checkouts (docs/product/course-products.md). */

const DOUBLE_KICK = 'Double Kick Mastery';

function useAffiliate() {
  const [params] = useSearchParams();
  return cleanAffiliate(params.get('affiliate'));
}
function usePaypalOutcome(): PaypalOutcome | null {
  const [params] = useSearchParams();
  const v = params.get('paypal');
  return (PAYPAL_OUTCOMES as readonly string[]).includes(v ?? '') ? (v as PaypalOutcome) : null;
}
const here = () => window.location.pathname + window.location.search;

const Loading = () => <Spinner label="Loading" className="py-24" />;
const Unavailable = ({ title }: { title: string }) => (
  <div className="mx-auto max-w-xl">
    <PageTitle title={title} />
    <p role="alert" className="rounded-xl bg-danger-soft px-4 py-3 text-base font-medium text-danger">
      {PRODUCT_MESSAGES.unknownProduct}
    </p>
  </div>
);

/** /login?to=... targets the register page itself */
function SignInNote() {
  if (pageConfig().authId) return null;
  return (
    <p className="mt-6 text-center text-base text-muted">
      Already have an account?{' '}
      <a
        href={`/login?to=${encodeURIComponent(here())}`}
        className="font-semibold text-accent-strong underline underline-offset-2"
      >
        Sign in
      </a>
    </p>
  );
}

/** /double-kick-mastery/register?affiliate= : Basic or Pro */
export function DoubleKickRegisterPage() {
  const affiliate = useAffiliate();
  const q = useDoubleKick();
  if (q.isPending) return <Loading />;
  if (!q.data) return <Unavailable title={DOUBLE_KICK} />;
  return (
    <div className="mx-auto max-w-4xl">
      <PageTitle
        title={DOUBLE_KICK}
        subtitle="Fast, even, effortless double kick. Choose your tier: spots are limited."
      />
      {q.data.owned ? (
        <p className="mb-6 rounded-xl bg-success-soft px-4 py-3 text-base font-semibold">
          {PRODUCT_MESSAGES.alreadyOwned}
        </p>
      ) : null}
      <TierPicker tiers={q.data.tiers} hrefFor={(t) => doubleKickCheckoutUrl(t.slug, affiliate)} />
      <SignInNote />
    </div>
  );
}

/** /checkout/double-kick-mastery?product=doublekick_159|doublekick_265&affiliate= */
export function DoubleKickCheckoutPage() {
  const [params] = useSearchParams();
  const affiliate = useAffiliate();
  const paypalOutcome = usePaypalOutcome();
  const q = useDoubleKick();
  if (q.isPending) return <Loading />;
  const tier = q.data?.tiers.find((t) => t.slug === params.get('product'));
  if (!q.data || !tier) return <Unavailable title="Checkout" />;
  return (
    <div className="mx-auto max-w-5xl">
      <PageTitle title="Checkout" subtitle={`${DOUBLE_KICK}: ${tier.level === 'pro' ? 'Pro' : 'Basic'}`} />
      <ProductCheckout
        tier={tier}
        productTitle={DOUBLE_KICK}
        owned={q.data.owned}
        courseUrl={q.data.course ? `/courses/${q.data.course.slug}` : null}
        affiliate={affiliate}
        checkoutUrl={doubleKickCheckoutUrl(tier.slug, affiliate)}
        signupFlag="dkm_signup"
        paypalOutcome={paypalOutcome}
      />
    </div>
  );
}

function useCourseParam() {
  const [params] = useSearchParams();
  const n = Number(params.get('course'));
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** /checkout/course/register?course={id}&affiliate= : a course's tiers */
export function CourseRegisterPage() {
  const courseId = useCourseParam();
  const affiliate = useAffiliate();
  const q = useCourseProduct(courseId);
  if (courseId === null) return <Unavailable title="Course registration" />;
  if (q.isPending) return <Loading />;
  if (!q.data) return <Unavailable title="Course registration" />;
  const c = q.data;
  return (
    <div className="mx-auto max-w-4xl">
      <PageTitle title={c.title} subtitle={c.description || 'Choose your tier.'} />
      {c.owned ? (
        <p className="mb-6 rounded-xl bg-success-soft px-4 py-3 text-base font-semibold">
          {PRODUCT_MESSAGES.alreadyOwned}
        </p>
      ) : null}
      <TierPicker tiers={c.tiers} hrefFor={(t) => courseCheckoutUrl(c.id, t.level, affiliate)} />
      <SignInNote />
    </div>
  );
}

/** /checkout/course?course={id}&level=basic|pro&affiliate= */
export function CourseCheckoutPage() {
  const [params] = useSearchParams();
  const courseId = useCourseParam();
  const affiliate = useAffiliate();
  const paypalOutcome = usePaypalOutcome();
  const q = useCourseProduct(courseId);
  const level = (COURSE_LEVELS as readonly string[]).includes(params.get('level') ?? '')
    ? (params.get('level') as CourseLevel)
    : null;
  if (courseId === null || level === null) return <Unavailable title="Checkout" />;
  if (q.isPending) return <Loading />;
  const tier = q.data?.tiers.find((t) => t.level === level);
  if (!q.data || !tier) return <Unavailable title="Checkout" />;
  return (
    <div className="mx-auto max-w-5xl">
      <PageTitle title="Checkout" subtitle={`${q.data.title}: ${level === 'pro' ? 'Pro' : 'Basic'}`} />
      <ProductCheckout
        tier={tier}
        productTitle={q.data.title}
        owned={q.data.owned}
        courseUrl={`/courses/${q.data.slug}`}
        affiliate={affiliate}
        checkoutUrl={courseCheckoutUrl(q.data.id, level, affiliate)}
        signupFlag={null}
        paypalOutcome={paypalOutcome}
      />
    </div>
  );
}
