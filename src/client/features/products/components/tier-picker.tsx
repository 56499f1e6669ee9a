import clsx from 'clsx';
import { Check, Users } from 'lucide-react';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { LEVEL_FEATURES, LEVEL_TITLES, type Tier } from '#shared/products';
import { buttonClass } from '#client/components/ui/button.tsx';
import { formatMoney } from '#shared/money';

/** "$159" crossed out, then "$99": the price of a tier, from the server's numbers */
export function TierPrice({
  tier,
  size = 'lg',
}: {
  tier: Pick<Tier, 'price_cents' | 'list_price_cents'>;
  size?: 'lg' | 'md';
}) {
  const list = tier.list_price_cents && tier.list_price_cents > tier.price_cents ? tier.list_price_cents : null;
  return (
    <p className="flex flex-wrap items-baseline gap-x-2">
      {list ? (
        <s className={clsx('font-semibold text-muted', size === 'lg' ? 'text-xl' : 'text-base')}>
          <span className="sr-only">Was </span>
          {formatMoney(list)}
        </s>
      ) : null}
      <span className={clsx('font-extrabold tabular-nums tracking-tight', size === 'lg' ? 'text-5xl' : 'text-3xl')}>
        {list ? <span className="sr-only">Now </span> : null}
        {formatMoney(tier.price_cents)}
      </span>
      <span className="text-base text-muted">once</span>
    </p>
  );
}

/** "42 of 60 spots left" (nothing for unlimited tiers) */
export function SpotsLeft({ tier }: { tier: Tier }) {
  if (tier.spots === null || tier.spots_left === null) return null;
  if (tier.sold_out) return null;
  const low = tier.spots_left <= Math.max(5, Math.round(tier.spots / 10));
  return (
    <p className={clsx('flex items-center gap-2 text-base font-semibold', low ? 'text-warning' : 'text-muted')}>
      <Users aria-hidden className="size-5" />
      <span>
        <span className="tabular-nums">{tier.spots_left}</span> of <span className="tabular-nums">{tier.spots}</span>{' '}
        spots left
      </span>
    </p>
  );
}

/** Basic and Pro side by side (stacked on a phone); each leads to its checkout, or says it is sold out. */
export function TierPicker({ tiers, hrefFor }: { tiers: Tier[]; hrefFor: (tier: Tier) => string }) {
  return (
    <ul className="grid gap-5 md:grid-cols-2" aria-label="Choose your tier">
      {tiers.map((tier) => {
        const name = LEVEL_TITLES[tier.level];
        return (
          <li
            key={tier.slug}
            data-testid={`tier-${tier.level}`}
            className={clsx(
              'flex flex-col gap-4 rounded-2xl border bg-surface p-6 shadow-sm',
              tier.level === 'pro' ? 'border-accent ring-1 ring-accent' : 'border-line',
            )}
          >
            <h2 className="text-2xl font-extrabold tracking-tight">{name}</h2>
            <TierPrice tier={tier} />
            <SpotsLeft tier={tier} />
            <ul className="flex flex-col gap-2 text-base">
              {LEVEL_FEATURES[tier.level].map((f) => (
                <li key={f} className="flex items-start gap-2">
                  <Check aria-hidden className="mt-0.5 size-5 shrink-0 text-success" />
                  {f}
                </li>
              ))}
            </ul>
            <div className="mt-auto pt-2">
              {tier.sold_out ? (
                <p role="status" className="rounded-xl bg-danger-soft px-4 py-3 text-base font-semibold text-danger">
                  {COMMERCE_MESSAGES.soldOut}
                </p>
              ) : (
                <a
                  href={hrefFor(tier)}
                  className={clsx(buttonClass(tier.level === 'pro' ? 'primary' : 'secondary', true), 'min-h-12')}
                >
                  Choose {name}
                </a>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
