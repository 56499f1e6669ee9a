import { useParams } from 'react-router';
import { PageTitle } from './common.tsx';
import { CardAuthentication } from './sandbox/card-authentication.tsx';
import { HostedCheckout } from './sandbox/hosted-checkout.tsx';
import { PaypalApproval } from './sandbox/paypal-approval.tsx';

/**
 * The sandbox payment provider's own pages: the PayPal-like approval page
 * (/sandbox/paypal/approve/:ref), the card authentication page (/sandbox/authenticate/:paymentMethod) and
 * the hosted card checkout (/sandbox/checkout/:ref: Stripe Checkout's part).
 * They talk to the sandbox's endpoints only (no CSRF token: like a provider's site, they are not ours).
 */
export function SandboxPage() {
  const rest = useParams()['*'] ?? '';
  const approve = /^paypal\/approve\/([\w-]+)$/.exec(rest);
  if (approve) return <PaypalApproval reference={approve[1]!} />;
  const hosted = /^checkout\/([\w-]+)$/.exec(rest);
  if (hosted) return <HostedCheckout reference={hosted[1]!} />;
  const auth = /^authenticate\/([\w-]+)$/.exec(rest);
  if (auth) return <CardAuthentication paymentMethod={auth[1]!} />;
  return <PageTitle title="Sandbox" subtitle="There is nothing to see at this address." />;
}
