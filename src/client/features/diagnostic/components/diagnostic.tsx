import { useId, useState, type FormEvent } from 'react';
import { ArrowRight } from 'lucide-react';
import {
  answerStep,
  AREA_LABELS,
  AREAS,
  barPercent,
  DIAGNOSTIC,
  DIAGNOSTIC_STEPS,
  initialDiagnostic,
  type FootSpeedResult,
} from '#shared/diagnostic';
import { post } from '#client/lib/api.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { FieldMessage, FormError, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback, type FieldMessages } from '#client/components/ui/form-feedback.ts';
import { ChoiceButtons, StepProgress } from '#client/components/ui/steps.tsx';

/**
 * The foot-speed diagnostic (docs/product/diagnostic.md): 9 steps, tempo at step 3, name and email last.
 * The last step shows what is wrong as every form does (components/ui/form-feedback.ts).
 */
export function FootSpeedDiagnostic() {
  const [state, setState] = useState(initialDiagnostic);
  const [answers, setAnswers] = useState<Array<number | string>>([]);
  const [tempo, setTempo] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const feedback = useFormFeedback();
  const id = useId();
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<FootSpeedResult | null>(null);
  const step = DIAGNOSTIC_STEPS[state.step - 1]!;

  const answer = (a: number | string) => {
    setAnswers((list) => [...list, a]);
    setState((s) => answerStep(s, a));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const missing: FieldMessages = {};
    if (!name.trim()) missing.name = DIAGNOSTIC.nameRequired;
    if (!email.trim()) missing.email = DIAGNOSTIC.emailRequired;
    if (Object.keys(missing).length) return feedback.show(missing, null);
    feedback.clear();
    setSending(true);
    try {
      setResult(await post<FootSpeedResult>('/placement/foot-speed/save', { name, email, answers }));
    } catch (err) {
      feedback.fail(err);
    }
    setSending(false);
  }

  if (result) {
    return (
      <div className="mx-auto flex max-w-xl flex-col gap-6">
        <h2 className="text-3xl font-extrabold tracking-tight">{DIAGNOSTIC.resultTitle}</h2>
        <ul className="flex flex-col gap-4">
          {AREAS.map((area) => (
            <li key={area} className="flex flex-col gap-1">
              <div className="flex justify-between font-semibold">
                <span>{AREA_LABELS[area]}</span>
                <span className="tabular text-muted">
                  {result.scores[area]}/{DIAGNOSTIC.scoreScale}
                </span>
              </div>
              <div
                role="progressbar"
                aria-label={AREA_LABELS[area]}
                aria-valuenow={barPercent(result.scores[area])}
                aria-valuemin={0}
                aria-valuemax={100}
                className="h-3 overflow-hidden rounded-full bg-surface-2"
              >
                <div
                  className={
                    area === result.primary ? 'h-full rounded-full bg-accent' : 'h-full rounded-full bg-muted/60'
                  }
                  style={{ width: `${barPercent(result.scores[area])}%` }}
                />
              </div>
            </li>
          ))}
        </ul>
        <div className="rounded-2xl border border-accent/40 bg-accent-soft p-5">
          <p className="text-sm font-semibold uppercase tracking-wider text-accent-strong">
            Your primary progress killer
          </p>
          <p className="text-2xl font-extrabold">{result.primary_label}</p>
          <p className="mt-1 text-muted">
            {result.skill} · {result.pedal}
            {result.tempo ? ` · ${result.tempo} bpm` : ''}
          </p>
        </div>
        <a href={result.link} className={buttonClass('primary')}>
          Open Practice Plan <ArrowRight aria-hidden className="size-5" />
        </a>
      </div>
    );
  }

  const percent = Math.round(((state.step - 1) / DIAGNOSTIC.steps) * 100);
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6">
      <StepProgress
        label={`Question ${state.step} of ${DIAGNOSTIC.steps}`}
        name="Diagnostic progress"
        percent={percent}
      />
      <h2 className="text-2xl font-bold">{step.title}</h2>
      {step.kind === 'choice' ? (
        <ChoiceButtons options={step.options} render={(o) => o.text} onChoose={answer} />
      ) : step.kind === 'tempo' ? (
        <form
          className="flex items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            answer(tempo);
          }}
        >
          <label className="flex flex-1 flex-col gap-1.5 text-sm font-semibold">
            Tempo (bpm)
            <input
              className={`${inputClass} text-2xl font-bold tabular`}
              inputMode="numeric"
              value={tempo}
              onChange={(e) => setTempo(e.target.value.replace(/\D/g, '').slice(0, 4))}
            />
          </label>
          <Button type="submit">Next</Button>
        </form>
      ) : (
        <form ref={feedback.formRef} onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" noValidate>
          <div className="flex flex-col gap-1.5">
            <label className="flex flex-col gap-1.5 text-sm font-semibold">
              First name
              <input
                className={inputClass}
                value={name}
                autoComplete="given-name"
                {...invalidProps(feedback.errors.name, `${id}-name-err`)}
                onChange={(e) => (setName(e.target.value), feedback.edited('name'))}
              />
            </label>
            <FieldMessage id={`${id}-name-err`} message={feedback.errors.name} />
          </div>
          <div className="flex flex-col gap-1.5">
            <label className="flex flex-col gap-1.5 text-sm font-semibold">
              Email
              <input
                className={inputClass}
                type="email"
                value={email}
                autoComplete="email"
                {...invalidProps(feedback.errors.email, `${id}-email-err`)}
                onChange={(e) => (setEmail(e.target.value), feedback.edited('email'))}
              />
            </label>
            <FieldMessage id={`${id}-email-err`} message={feedback.errors.email} />
          </div>
          <FormError message={feedback.summary} inline />
          <Button type="submit" disabled={sending}>
            See my result
          </Button>
        </form>
      )}
    </div>
  );
}
