import { useEffect, useState } from 'react';
import { DEFAULT_RETENTION_OFFERS, retentionOffersSchema, type RetentionOffers } from '#shared/admin-commerce';
import { AdminTitle, FormButtons, Panel } from '#client/components/admin/form.tsx';
import { LoadError } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { centsText, toCents, toInt } from './money.ts';
import { useSetting } from './parts.tsx';

const RETENTION_FIELDS: Array<[keyof RetentionOffers, string, 'percent' | 'count' | 'money', string]> = [
  ['monthlyDiscountPercent', 'Monthly discount (%)', 'percent', 'Percent off a monthly member’s next payments.'],
  ['monthlyDiscountCycles', 'Discounted months', 'count', 'How many monthly payments the discount covers.'],
  ['yearlyDiscountCents', 'Yearly discount ($)', 'money', 'Off a yearly member’s next payment.'],
  [
    'yearlyUpgradeDiscountCents',
    'Yearly upgrade discount ($)',
    'money',
    'Off the first year when a monthly member switches to yearly.',
  ],
  ['lifetimeDiscountPercent', 'Lifetime discount (%)', 'percent', 'Off the lifetime price in the cancel flow.'],
  ['cardPauseFeeCents', 'Card pause fee ($ a month)', 'money', 'Charged each month while a card membership is paused.'],
  ['paypalPauseFeeCents', 'PayPal pause fee ($ a month)', 'money', 'PayPal suspensions; 0 for free.'],
];

/** /admin/retention: the offers of the cancel flow (docs/product/retention.md). */
export function RetentionPage() {
  const { query, form, save } = useSetting<RetentionOffers>('admin-retention', '/api/admin/retention');
  const [d, setD] = useState<Record<string, string> | null>(null);
  const toDraft = (o: RetentionOffers) =>
    Object.fromEntries(RETENTION_FIELDS.map(([k, , kind]) => [k, kind === 'money' ? centsText(o[k]) : String(o[k])]));
  useEffect(() => {
    if (query.data) setD(toDraft(query.data));
  }, [query.data]);
  return (
    <>
      <AdminTitle
        title="Retention offers"
        description="What the cancel flow offers a member who is leaving. The billing page’s wording and the charges use these figures."
      />
      {query.isError ? (
        <LoadError error={query.error} />
      ) : !d ? (
        <Spinner />
      ) : (
        <Panel>
          <form
            noValidate
            aria-label="Retention offers"
            className="flex flex-col gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              const values = Object.fromEntries(
                RETENTION_FIELDS.map(([k, , kind]) => [k, kind === 'money' ? toCents(d[k] ?? '') : toInt(d[k] ?? '')]),
              );
              const body = form.check(retentionOffersSchema, values);
              if (body) save.mutate(body);
            }}
          >
            <div className="grid gap-4 md:grid-cols-2">
              {RETENTION_FIELDS.map(([k, l, kind, hint]) => (
                <Field
                  key={k}
                  label={l}
                  hint={hint}
                  inputMode={kind === 'money' ? 'decimal' : 'numeric'}
                  value={d[k] ?? ''}
                  error={form.of(k)}
                  onChange={(e) => setD({ ...d, [k]: e.target.value })}
                />
              ))}
            </div>
            <FormButtons error={form.formError} busy={save.isPending}>
              <Button
                type="button"
                variant="secondary"
                onClick={() => {
                  form.clear();
                  setD(toDraft(DEFAULT_RETENTION_OFFERS));
                }}
              >
                Fill in the spec’s offers
              </Button>
            </FormButtons>
          </form>
        </Panel>
      )}
    </>
  );
}
