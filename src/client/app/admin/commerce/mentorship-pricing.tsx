import { useEffect, useState } from 'react';
import { mentorshipPricingSchema, type MentorshipPricing } from '#shared/admin-commerce';
import { AdminTitle, Checkbox, Panel } from '#client/components/admin/form.tsx';
import { LoadError } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { formatMoney } from '#shared/money';
import { useSetting } from './parts.tsx';

const FLAG_LABELS: Array<[keyof MentorshipPricing, string, string]> = [
  ['price2600', `Full price ${formatMoney(2600_00)}`, `Instead of ${formatMoney(3200_00)} (like ?price2600=1).`],
  ['price3900', `Full price ${formatMoney(3900_00)}`, `Instead of ${formatMoney(3200_00)} (like ?price3900=1).`],
  [
    'downsell',
    `Downsell: only ${formatMoney(1600_00)}`,
    `Shows only the ${formatMoney(1600_00)} option (like ?downsell=1).`,
  ],
  [
    'showsix',
    'Show the 6-payment plan',
    'Adds 6 monthly payments; 3 payments stays available by link (like ?showsix=1).',
  ],
];

/** the lower prices a campaign link may offer; off, the link's flag is ignored and the price refused */
const LINK_OFFER_LABELS: Array<[keyof MentorshipPricing, string, string]> = [
  [
    'price2600ByLink',
    'Links may offer $2,600',
    'A link with ?price2600=1 shows the $2,600 full price to whoever opens it.',
  ],
  [
    'downsellByLink',
    'Links may offer the $1,600 downsell',
    'A link with ?downsell=1 shows only the $1,600 option to whoever opens it.',
  ],
];

/** /admin/mentorship-pricing: the checkout's default flags and the lower prices links may offer. Amounts stay fixed. */
export function MentorshipPricingPage() {
  const { query, form, save } = useSetting<MentorshipPricing>(
    'admin-mentorship-pricing',
    '/api/admin/mentorship-pricing',
  );
  const [d, setD] = useState<MentorshipPricing | null>(null);
  useEffect(() => {
    if (query.data) setD(query.data);
  }, [query.data]);
  return (
    <>
      <AdminTitle
        title="Mentorship pricing"
        description="Which payment options /mentorship/checkout offers by default, and which lower prices a link may offer. A link's other flags (?price3900=1, ?showsix=1…) apply on top."
      />
      {query.isError ? (
        <LoadError error={query.error} />
      ) : !d ? (
        <Spinner />
      ) : (
        <Panel>
          <form
            noValidate
            aria-label="Mentorship checkout defaults"
            className="flex flex-col gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              const body = form.check(mentorshipPricingSchema, d);
              if (body) save.mutate(body);
            }}
          >
            <fieldset className="flex flex-col gap-4">
              <legend className="mb-2 text-base font-semibold">Shown to everyone</legend>
              {FLAG_LABELS.map(([k, l, hint]) => (
                <Checkbox
                  key={k}
                  label={l}
                  hint={hint}
                  checked={d[k]}
                  error={form.of(k)}
                  onChange={(v) => setD({ ...d, [k]: v })}
                />
              ))}
            </fieldset>
            <fieldset className="flex flex-col gap-4">
              <legend className="mb-2 text-base font-semibold">Offered by link only</legend>
              {LINK_OFFER_LABELS.map(([k, l, hint]) => (
                <Checkbox
                  key={k}
                  label={l}
                  hint={hint}
                  checked={d[k]}
                  error={form.of(k)}
                  onChange={(v) => setD({ ...d, [k]: v })}
                />
              ))}
            </fieldset>
            <p className="text-sm text-muted">
              The amounts ({[3200_00, 1600_00, 2600_00, 3900_00].map((c) => formatMoney(c)).join(', ')} and the
              instalment plans) are fixed by the server; only which options are offered changes here.
            </p>
            <FormError message={form.formError} />
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                Save
              </Button>
            </div>
          </form>
        </Panel>
      )}
    </>
  );
}
