/**
 * The one way an amount of money is written for people: "$24,813.00", "$750.00", "€29.00".
 * Amounts travel as integer cents (minor units) with an ISO currency code; see docs/product/billing-once.md.
 */
const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string): Intl.NumberFormat {
  const code = currency.toUpperCase();
  let f = formatters.get(code);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: code,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(code, f);
  }
  return f;
}

/** integer cents in `currency` (default USD) → "$1,234.50"; a negative amount (a credit) → "-$1,234.50" */
export function formatMoney(cents: number, currency = 'USD'): string {
  return formatterFor(currency).format(cents / 100);
}
