import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminPlanSchema, PLAN_CYCLES, type AdminPlan } from '#shared/admin-commerce';
import { api, get } from '#client/lib/api.ts';
import { AdminTitle, Checkbox, FormButtons, Panel, Select, useFormErrors } from '#client/components/admin/form.tsx';
import { Loading } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { centsText, toCents, toCentsOrNull, toInt } from './money.ts';
import { label } from './parts.tsx';

type PlanDraft = Record<string, string | boolean>;
const planDraft = (p: AdminPlan): PlanDraft => {
  const d: PlanDraft = {
    heading: p.heading,
    subheading: p.subheading,
    has_trial: p.has_trial,
    monthly_title: p.monthly_title,
    active: p.active,
    monthly_trial_days: String(p.monthly_trial_days),
    yearly_trial_days: String(p.yearly_trial_days),
  };
  for (const c of PLAN_CYCLES) {
    d[`${c}_price_cents`] = centsText(p[`${c}_price_cents`]);
    d[`${c}_crossed_out_cents`] = centsText(p[`${c}_crossed_out_cents`]);
    d[`${c}_sales_tag`] = p[`${c}_sales_tag`] ?? '';
  }
  return d;
};
function planValues(d: PlanDraft) {
  const s = (k: string) => String(d[k] ?? '');
  const v: Record<string, unknown> = {
    heading: s('heading'),
    subheading: s('subheading'),
    has_trial: !!d.has_trial,
    monthly_title: s('monthly_title'),
    active: !!d.active,
    monthly_trial_days: toInt(s('monthly_trial_days')),
    yearly_trial_days: toInt(s('yearly_trial_days')),
  };
  for (const c of PLAN_CYCLES) {
    v[`${c}_price_cents`] = toCents(s(`${c}_price_cents`));
    v[`${c}_crossed_out_cents`] = toCentsOrNull(s(`${c}_crossed_out_cents`));
    v[`${c}_sales_tag`] = s(`${c}_sales_tag`) || null;
  }
  return v;
}

function PlanForm({ plan }: { plan: AdminPlan }) {
  const [draft, setDraft] = useState<PlanDraft>(() => planDraft(plan));
  useEffect(() => setDraft(planDraft(plan)), [plan]);
  const form = useFormErrors();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (body: unknown) => api<AdminPlan>('PUT', `/api/admin/plans/${plan.slug}`, body),
    onSuccess: (saved) => {
      toast('Plan saved. The checkout shows it now.');
      qc.setQueryData(['admin-plans'], (old: { data: AdminPlan[] } | undefined) =>
        old ? { data: old.data.map((p) => (p.slug === saved.slug ? saved : p)) } : old,
      );
    },
    onError: (err) => form.fromServer(err),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = form.check(adminPlanSchema, planValues(draft));
    if (body) save.mutate(body);
  };
  const text = (k: string, l: string, extra: { hint?: string; inputMode?: 'decimal' | 'numeric' } = {}) => (
    <Field
      label={l}
      value={String(draft[k] ?? '')}
      error={form.of(k)}
      onChange={(e) => setDraft((d) => ({ ...d, [k]: e.target.value }))}
      {...extra}
    />
  );
  return (
    <Panel title={`Checkout “${plan.slug}”`}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-5" aria-label={`Edit the ${plan.slug} plan`}>
        <p className="text-sm text-muted">
          Members see it at{' '}
          <a className="font-semibold text-accent-strong hover:underline" href={`/join/${plan.slug}`}>
            /join/{plan.slug}
          </a>
          . Prices in dollars.
        </p>
        <div className="grid gap-4 md:grid-cols-2">
          {text('heading', 'Heading')}
          {text('monthly_title', 'Monthly title', { hint: 'The name of the monthly option, e.g. "Monthly".' })}
        </div>
        {text('subheading', 'Subheading')}
        {PLAN_CYCLES.map((c) => (
          <fieldset key={c} className="grid gap-4 rounded-xl border border-line p-4 md:grid-cols-3">
            <legend className="px-1 font-semibold">{label(c)}</legend>
            {text(`${c}_price_cents`, `${label(c)} price ($)`, { inputMode: 'decimal' })}
            {text(`${c}_crossed_out_cents`, `${label(c)} crossed-out price ($)`, {
              inputMode: 'decimal',
              hint: 'Empty: none. Must be above the price.',
            })}
            {text(`${c}_sales_tag`, `${label(c)} sales tag`, { hint: 'e.g. "Best value". Empty: none.' })}
          </fieldset>
        ))}
        <div className="grid gap-4 md:grid-cols-3">
          <Checkbox
            label="Offer a free trial"
            checked={!!draft.has_trial}
            onChange={(v) => setDraft((d) => ({ ...d, has_trial: v }))}
            error={form.of('has_trial')}
          />
          {text('monthly_trial_days', 'Monthly trial days', { inputMode: 'numeric' })}
          {text('yearly_trial_days', 'Yearly trial days', { inputMode: 'numeric' })}
        </div>
        <Checkbox
          label="Active (the checkout is open)"
          checked={!!draft.active}
          onChange={(v) => setDraft((d) => ({ ...d, active: v }))}
          error={form.of('active')}
        />
        <FormButtons error={form.formError} busy={save.isPending} label="Save plan">
          <Button
            type="button"
            variant="secondary"
            onClick={() => {
              form.clear();
              setDraft(planDraft(plan));
            }}
          >
            Reset
          </Button>
        </FormButtons>
      </form>
    </Panel>
  );
}

/** /admin/plans: the membership plan object, per checkout slug. */
export function PlansPage() {
  const plans = useQuery({ queryKey: ['admin-plans'], queryFn: () => get<{ data: AdminPlan[] }>('/api/admin/plans') });
  const [slug, setSlug] = useState<string | null>(null);
  const current = plans.data?.data.find((p) => p.slug === slug) ?? plans.data?.data[0] ?? null;
  return (
    <>
      <AdminTitle
        title="Membership plans"
        description="Headings, prices, crossed-out prices, sales tags and trials of each membership checkout."
      />
      <Loading query={plans}>
        {(data) =>
          !current ? (
            <p className="text-muted">No checkout plans yet.</p>
          ) : (
            <div className="flex flex-col gap-4">
              {data.data.length > 1 ? (
                <Select
                  label="Checkout"
                  value={current.slug}
                  onChange={(e) => setSlug(e.target.value)}
                  options={data.data.map((p) => [p.slug, `${p.slug}: ${p.heading}`])}
                  className="sm:w-80"
                />
              ) : null}
              <PlanForm key={current.slug} plan={current} />
            </div>
          )
        }
      </Loading>
    </>
  );
}
