import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { ApiError, NETWORK_ERROR } from '#client/lib/api.ts';

/**
 * The one way every form reports what is wrong (docs/product/accessibility.md):
 * - each field's message is shown under it by the shared fields (`Field`, `TextArea`, `Select`,
 *   `fieldProps`), which mark it `aria-invalid` and point `aria-describedby` at the message;
 * - a summary is announced by the form's `role="alert"` line (`FormError`): which fields to correct,
 *   named as their labels say, or the form's own message when no field is wrong;
 * - focus moves to the first wrong field in the order the form shows them, or to the submit button
 *   when no field is wrong (a button busy at that moment gets it once it is back).
 *
 * The fields are found in the rendered form (`[aria-invalid="true"]`), so a form lists no field names
 * twice and a message for a field the form does not show becomes the form's own message.
 *
 * An editor that saves as the member types passes `{ focus: false }`: the fields are marked and the
 * summary is said, but focus stays where the member is typing (it moves only on an explicit action).
 */
export type FieldMessages = Record<string, string>;

/** "Please correct this field: Name." / "Please correct these 2 fields: Name, Password." (a label's own end mark is dropped) */
export const correctThese = (labels: string[]) =>
  `Please correct ${labels.length === 1 ? 'this field' : `these ${labels.length} fields`}: ${labels
    .map((l) => l.replace(/[.?!:]+$/, ''))
    .join(', ')}.`;

/** A label's words without those of a control it wraps (a textarea's text, a select's options). */
function labelText(label: HTMLLabelElement | undefined): string {
  if (!label) return '';
  const copy = label.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('input, textarea, select, [aria-hidden="true"]').forEach((c) => c.remove());
  return copy.textContent ?? '';
}

/** A field's name as assistive technology reads it: its label, aria-labelledby or aria-label, a group's legend. */
function fieldName(el: Element): string {
  const byIds = el
    .getAttribute('aria-labelledby')
    ?.split(/\s+/)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
  const label =
    byIds ||
    el.getAttribute('aria-label') ||
    (el instanceof HTMLFieldSetElement ? el.querySelector('legend')?.textContent : null) ||
    labelText((el as HTMLInputElement).labels?.[0]) ||
    '';
  return label.replace(/\s+/g, ' ').trim();
}

/** The control that takes focus for a wrong field: the field itself, or a group's first (checked) control. */
function focusable(el: HTMLElement): HTMLElement {
  if (el.matches('input, select, textarea, button, [tabindex]')) return el;
  return (
    el.querySelector<HTMLElement>('input:checked, [aria-checked="true"]') ??
    el.querySelector<HTMLElement>('input, select, textarea, button, [tabindex]') ??
    el
  );
}

const wrongFields = (form: HTMLElement) =>
  [...form.querySelectorAll<HTMLElement>('[aria-invalid="true"]')].filter(
    // a control inside a group that is itself marked counts once, as the group
    (el) => !el.parentElement?.closest('[aria-invalid="true"]'),
  );

/** A 422's field messages (field name -> its first message); none for any other failure. */
export function fieldMessages(err: unknown): FieldMessages {
  const found: FieldMessages = {};
  if (err instanceof ApiError) for (const [k, v] of Object.entries(err.errors ?? {})) if (v[0]) found[k] = v[0];
  return found;
}

export function useFormFeedback() {
  const [errors, setErrors] = useState<FieldMessages>({});
  const [message, setMessage] = useState<string | null>(null);
  const [summary, setSummary] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement | null>(null);
  /** set by `show`: the next render reads the wrong fields, says the summary and moves focus */
  const pending = useRef(false);
  /** false for a `show` that must leave focus where it is (an autosave) */
  const moveFocus = useRef(true);

  // after the render that marks the fields (before paint, so the summary and the marks arrive together)
  useLayoutEffect(() => {
    if (!pending.current) return;
    const form = formRef.current;
    if (!form) return;
    const wrong = wrongFields(form);
    const labels = wrong.map(fieldName).filter(Boolean);
    const next = wrong.length ? (labels.length ? correctThese(labels) : message) : message;
    if (next !== summary) {
      setSummary(next);
      return;
    }
    if (!moveFocus.current) {
      pending.current = false;
      return;
    }
    const target = wrong[0]
      ? focusable(wrong[0])
      : form.querySelector<HTMLElement>('[type="submit"], button:not([type])');
    // the submit button may be busy (disabled, or replaced by a spinner) until the answer is shown
    if (!target || target.matches(':disabled')) return;
    pending.current = false;
    target.focus();
  });

  /**
   * Shows `fields` (field name -> message) under their fields and `formMessage` as the form's own
   * message (said when no shown field is wrong); `form` is the form element when `formRef` is not attached;
   * `focus: false` leaves focus where it is.
   */
  const show = useCallback(
    (
      fields: FieldMessages,
      formMessage: string | null,
      form?: HTMLFormElement | null,
      { focus = true }: { focus?: boolean } = {},
    ) => {
      if (form) formRef.current = form;
      else if (!formRef.current) formRef.current = document.activeElement?.closest('form') ?? null;
      pending.current = true;
      moveFocus.current = focus;
      setErrors(fields);
      setMessage(formMessage);
      // a new summary each time, so that the same words are said again after another try
      setSummary(null);
    },
    [],
  );

  const clear = useCallback(() => {
    pending.current = false;
    setErrors({});
    setMessage(null);
    setSummary(null);
  }, []);

  return {
    formRef,
    errors,
    /** the announced line: which fields to correct, or the form's own message */
    summary,
    /** the message under one field: its own key, or the first nested key under it (`items.0.title`) */
    error: (field: string): string | undefined =>
      errors[field] ?? Object.entries(errors).find(([k]) => k.startsWith(`${field}.`))?.[1],
    /** an edited field is no longer marked wrong; the summary stays until the next try */
    edited: (field: string) => {
      // the member is typing: focus stays where it is, even if a busy submit button has not come back yet
      pending.current = false;
      setErrors((errs) => {
        if (!Object.keys(errs).some((k) => k === field || k.startsWith(`${field}.`))) return errs;
        return Object.fromEntries(Object.entries(errs).filter(([k]) => k !== field && !k.startsWith(`${field}.`)));
      });
    },
    show,
    /**
     * A failed call: a 422's field messages under their fields; the form's own message is `formMessage`
     * when given, else the server's sentence, else (the server was not reached) the network message.
     */
    fail(err: unknown, formMessage?: string, form?: HTMLFormElement | null) {
      show(fieldMessages(err), formMessage ?? (err instanceof ApiError ? err.message : NETWORK_ERROR), form);
    },
    /** stable across renders, so an effect or callback may depend on it */
    clear,
  };
}

export type FormFeedback = ReturnType<typeof useFormFeedback>;

/**
 * Props for a control the shared fields do not draw (a custom input, a group): the wrong mark and
 * the message's id. The message itself is rendered with `id={errorId}` under the control.
 */
export const invalidProps = (error: string | undefined, errorId: string) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
