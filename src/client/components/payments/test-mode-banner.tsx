import { FlaskConical } from 'lucide-react';
import { pageConfig } from '#client/lib/page-config.ts';

export const TEST_MODE_TEXT =
  'Test mode: payments on this site are simulated. No real money is taken, and nothing bought here is a real purchase.';

/**
 * Over every checkout page while a production server takes payments on the sandbox, so that nobody
 * mistakes a test card for a real payment (docs/product/test-mode.md).
 */
export function TestModeBanner() {
  if (!pageConfig().payments.testMode) return null;
  return (
    <div
      role="note"
      aria-label="Test mode"
      className="mb-6 flex items-start gap-3 rounded-xl border border-warning/50 bg-warning-soft px-4 py-3"
    >
      <FlaskConical aria-hidden className="mt-0.5 size-5 shrink-0 text-warning" />
      <p className="min-w-0 text-base font-semibold">{TEST_MODE_TEXT}</p>
    </div>
  );
}
