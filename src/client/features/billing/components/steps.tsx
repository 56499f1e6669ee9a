import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import clsx from 'clsx';
import { CheckCircle2, XCircle } from 'lucide-react';
import { CANCEL_REASONS, COMMERCE_MESSAGES } from '#shared/commerce';
import { reasonNeedsDescription, REASON_DESCRIPTION_MAX } from '#shared/billing';
import { Button } from '#client/components/ui/button.tsx';
import { FieldMessage, FormError } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { newIdempotencyKey, type ReasonFields } from '../api/billing.ts';

const EMPTY_REASON: ReasonFields = { reason: '', reason_description: '' };

/**
 * What both cancel modals keep while they walk the steps of docs/product/retention.md: the step, the reason, the error
 * shown, a call in flight and this opening's idempotency key. `reset` runs when the modal opens.
 */
export function useCancelFlow() {
  const [step, setStep] = useState(1);
  const [fields, setFields] = useState<ReasonFields>(EMPTY_REASON);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(newIdempotencyKey);
  const reset = useCallback(() => {
    setStep(1);
    setFields(EMPTY_REASON);
    setError(null);
    setBusy(false);
    setKey(newIdempotencyKey());
  }, []);
  const go = (n: number) => {
    setError(null);
    setStep(n);
  };
  return { step, setStep, go, fields, setFields, error, setError, busy, setBusy, key, reset };
}
export type CancelFlow = ReturnType<typeof useCancelFlow>;

/** Steps 0 to 2 of both cancel modals: thanks, the loss warning, and the reason checked with the flow's messages. */
export function OpeningSteps({
  flow,
  endDate,
  done,
  onClose,
}: {
  flow: CancelFlow;
  endDate: string;
  done: string | null;
  onClose: () => void;
}) {
  const { step, go, fields, setFields } = flow;
  if (step === 0) return <ThanksStep message={done} onClose={onClose} />;
  if (step === 1) return <LossStep endDate={endDate} onStay={() => go(0)} onNext={() => go(2)} />;
  if (step !== 2) return null;
  return <ReasonStep value={fields} onChange={setFields} onBack={() => go(1)} onNext={() => go(3)} />;
}

/** step 2: the first message, or null */
export function reasonMessage(f: ReasonFields): string | null {
  if (!CANCEL_REASONS.some((r) => r.value === f.reason)) return COMMERCE_MESSAGES.reasonRequired;
  if (reasonNeedsDescription(f.reason) && !f.reason_description.trim())
    return COMMERCE_MESSAGES.reasonDescriptionRequired;
  return null;
}

/**
 * "Step 2 of 5". A step after the first takes focus here as it opens (the button that led to it has
 * gone), so a screen reader says which step this is and the next Tab starts at its top.
 */
export function StepLabel({ step }: { step: number }) {
  const label = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (step > 1) label.current?.focus();
  }, [step]);
  return (
    <p
      ref={label}
      tabIndex={step > 1 ? -1 : undefined}
      className="mb-3 text-sm font-semibold text-muted"
      data-testid="cancel-step"
    >
      Step {step} of 5
    </p>
  );
}

export const StepActions = ({ children }: { children: ReactNode }) => (
  <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{children}</div>
);

/**
 * A step's foot: its error line (when the step passes `error`), then the back button (`back`, default
 * "Back") beside the step's own action (`children`).
 */
export function StepFooter({
  error,
  back = 'Back',
  onBack,
  children,
}: {
  error?: string | null;
  back?: string;
  onBack: () => void;
  children: ReactNode;
}) {
  return (
    <>
      {error !== undefined ? (
        <div className="mt-3">
          <FormError message={error} inline />
        </div>
      ) : null}
      <StepActions>
        <Button variant="secondary" onClick={onBack}>
          {back}
        </Button>
        {children}
      </StepActions>
    </>
  );
}

/** Step 0: stay, thanks (or what the last call did); focus moves to the message, which says what happened */
export function ThanksStep({ message, onClose }: { message: string | null; onClose: () => void }) {
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => said.current?.focus(), []);
  return (
    <div className="flex flex-col items-center gap-4 py-2 text-center" data-testid="cancel-step-0">
      <CheckCircle2 aria-hidden className="size-12 text-accent" />
      <p ref={said} tabIndex={-1} className="text-lg font-semibold" role="status">
        {message ?? 'Thanks for staying with us! Your membership carries on as before.'}
      </p>
      <Button onClick={onClose}>Back to billing</Button>
    </div>
  );
}

/** Step 1: what they lose */
export function LossStep({ onStay, onNext, endDate }: { onStay: () => void; onNext: () => void; endDate: string }) {
  const losses = [
    'Every course and lesson in the academy',
    'The forums, live shows and their chat',
    'Your place in the staged learning path and your progress streaks',
    'New lessons added every week',
  ];
  return (
    <div data-testid="cancel-step-1">
      <StepLabel step={1} />
      <p className="text-lg font-semibold">Before you go, here is what you would lose after {endDate}:</p>
      <ul className="mt-3 flex flex-col gap-2">
        {losses.map((l) => (
          <li key={l} className="flex items-start gap-2">
            <XCircle aria-hidden className="mt-0.5 size-5 shrink-0 text-danger" />
            <span>{l}</span>
          </li>
        ))}
      </ul>
      <StepActions>
        <Button variant="secondary" onClick={onNext}>
          Continue
        </Button>
        <Button onClick={onStay}>Keep my membership</Button>
      </StepActions>
    </div>
  );
}

/**
 * Step 2: why (a radio list; the two reasons marked in CANCEL_REASONS need a description). A missing
 * answer is shown under its field, as in every form (components/ui/form-feedback.ts).
 */
export function ReasonStep({
  value,
  onChange,
  onBack,
  onNext,
}: {
  value: ReasonFields;
  onChange: (v: ReasonFields) => void;
  onBack: () => void;
  onNext: () => void;
}) {
  const id = useId();
  const feedback = useFormFeedback();
  const needs = reasonNeedsDescription(value.reason);
  return (
    <form
      ref={feedback.formRef}
      data-testid="cancel-step-2"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const m = reasonMessage(value);
        if (!m) return onNext();
        feedback.show(m === COMMERCE_MESSAGES.reasonRequired ? { reason: m } : { reason_description: m }, null);
      }}
    >
      <StepLabel step={2} />
      <fieldset {...invalidProps(feedback.errors.reason, `${id}-reason-err`)}>
        <legend className="mb-3 text-lg font-semibold">Why do you want to cancel?</legend>
        <div className="flex flex-col gap-2">
          {CANCEL_REASONS.map((r) => (
            <label
              key={r.value}
              className={clsx(
                'flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border px-4 py-2',
                value.reason === r.value ? 'border-accent bg-accent-soft' : 'border-line hover:bg-surface-2',
              )}
            >
              <input
                type="radio"
                name="reason"
                value={r.value}
                checked={value.reason === r.value}
                onChange={() => {
                  onChange({ ...value, reason: r.value });
                  feedback.edited('reason');
                }}
                className="size-5 accent-[var(--color-accent)]"
              />
              <span>{r.value}</span>
            </label>
          ))}
        </div>
        <FieldMessage id={`${id}-reason-err`} message={feedback.errors.reason} />
      </fieldset>
      <label htmlFor={`${id}-desc`} className="mt-4 block text-sm font-semibold">
        {needs ? 'Please tell us more (required)' : 'Anything else you would like to tell us? (optional)'}
      </label>
      <textarea
        id={`${id}-desc`}
        name="reason_description"
        value={value.reason_description}
        maxLength={REASON_DESCRIPTION_MAX}
        onChange={(e) => {
          onChange({ ...value, reason_description: e.target.value });
          feedback.edited('reason_description');
        }}
        rows={3}
        {...invalidProps(feedback.errors.reason_description, `${id}-desc-err`)}
        className="mt-1.5 w-full rounded-xl border border-line bg-surface px-4 py-3 text-base focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30 aria-[invalid=true]:border-danger"
      />
      <FieldMessage id={`${id}-desc-err`} message={feedback.errors.reason_description} />
      <StepFooter error={feedback.summary} onBack={onBack}>
        <Button type="submit">Continue</Button>
      </StepFooter>
    </form>
  );
}

/** A big radio or tick-box option */
export function Option({
  type,
  name,
  checked,
  onChange,
  title,
  detail,
  testId,
}: {
  type: 'radio' | 'checkbox';
  name: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  title: string;
  detail?: string;
  testId?: string;
}) {
  return (
    <label
      data-testid={testId}
      className={clsx(
        'flex min-h-14 cursor-pointer items-start gap-3 rounded-xl border px-4 py-3',
        checked ? 'border-accent bg-accent-soft' : 'border-line hover:bg-surface-2',
      )}
    >
      <input
        type={type}
        name={name}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-1 size-5 shrink-0 accent-[var(--color-accent)]"
      />
      <span>
        <span className="block font-semibold">{title}</span>
        {detail ? <span className="block text-sm text-muted">{detail}</span> : null}
      </span>
    </label>
  );
}
