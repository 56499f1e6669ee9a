import { forwardRef, useId } from 'react';
import { CardForm, type CardFormHandle, type ConfirmResult } from '#client/components/payments/card-form.tsx';

/** What the checkout needs from the card form: confirm the card against a setup's client secret. */
export type CardResult = ConfirmResult;
export type CardHandle = CardFormHandle;

/**
 * The card element (the sandbox's fields or Stripe Elements) with the card error under it
 * (card errors are shown under the card element, in the provider's words), marked on the card's
 * fields; the form's summary announces it (components/ui/form-feedback.ts).
 */
export const CardField = forwardRef<CardHandle, { error: string | null; disabled?: boolean }>(function CardField(
  { error, disabled },
  ref,
) {
  const errorId = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <CardForm ref={ref} disabled={!!disabled} errorId={error ? errorId : undefined} />
      {error ? (
        <p id={errorId} className="text-sm font-medium text-danger" data-testid="card-error">
          {error}
        </p>
      ) : null}
    </div>
  );
});
