import { useState, type FormEvent } from 'react';
import { ArrowRight } from 'lucide-react';
import {
  answerStep,
  AREA_LABELS,
  AREAS,
  barPercent,
  DIAGNOSTIC,
  DIAGNOSTIC_STEPS,
  initialDiagnostic,
  type Area,
  type Scores,
} from '#shared/diagnostic';
import { ApiError, post } from '#client/lib/api.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { FormError, inputClass } from '#client/components/ui/field.tsx';
import { ChoiceButtons, StepProgress } from '#client/components/ui/steps.tsx';

interface Result {
  skill: string;
  pedal: string;
  tempo: number | null;
  scores: Scores;
  primary: Area;
  primary_label: string;
  link: string;
}

/** The foot-speed diagnostic (docs/product/diagnostic.md): 9 steps, tempo at step 3, name and email last. */
export function FootSpeedDiagnostic() {
  const [state, setState] = useState(initialDiagnostic);
  const [answers, setAnswers] = useState<Array<number | string>>([]);
  const [tempo, setTempo] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const step = DIAGNOSTIC_STEPS[state.step - 1]!;

  const answer = (a: number | string) => {
    setAnswers((list) => [...list, a]);
    setState((s) => answerStep(s, a));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim() || !email.trim()) return setError(DIAGNOSTIC.nameEmailRequired);
    setSending(true);
    try {
      setResult(await post<Result>('/placement/foot-speed/save', { name, email, answers }));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'We could not reach the server. Please try again.');
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
        <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" noValidate>
          <label className="flex flex-col gap-1.5 text-sm font-semibold">
            First name
            <input
              className={inputClass}
              value={name}
              autoComplete="given-name"
              onChange={(e) => (setName(e.target.value), setError(null))}
            />
          </label>
          <label className="flex flex-col gap-1.5 text-sm font-semibold">
            Email
            <input
              className={inputClass}
              type="email"
              value={email}
              autoComplete="email"
              onChange={(e) => (setEmail(e.target.value), setError(null))}
            />
          </label>
          <FormError message={error} inline />
          <Button type="submit" disabled={sending}>
            See my result
          </Button>
        </form>
      )}
    </div>
  );
}
