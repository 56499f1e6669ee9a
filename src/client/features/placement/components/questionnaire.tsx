import { useState, type ChangeEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import clsx from 'clsx';
import { LEARNING, stageFromScore, stageTitleFromScore, UPLOADS } from '#shared/learning';
import { placementScore, type PlacementQuestion } from '#shared/placement';
import type { AvatarUploadResponse } from '#shared/profile';
import { api, get, post } from '#client/lib/api.ts';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ChoiceButtons, StepProgress } from '#client/components/ui/steps.tsx';

const WELCOME_COURSE = '/courses/welcome-to-backbeat';
type AvatarState = 'initial' | 'saving' | 'success' | 'failed';

/** Avatar upload on the result screen: initial, saving, success, failed with retry. */
function AvatarUpload() {
  const [state, setState] = useState<AvatarState>('initial');
  const [url, setUrl] = useState<string | null>(null);
  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    setState('saving');
    const body = new FormData();
    body.append('avatar', file);
    try {
      setUrl((await api<AvatarUploadResponse>('POST', '/account/avatar/upload', body)).avatar);
      setState('success');
    } catch {
      setState('failed');
    }
  }
  return (
    <div className="flex flex-col items-center gap-3" data-state={state}>
      {state === 'initial' ? (
        <label className={clsx(buttonClass('secondary'), 'cursor-pointer')}>
          Add a profile photo
          <input
            type="file"
            accept="image/jpeg,image/png,image/gif"
            className="sr-only"
            onChange={(e) => void choose(e)}
            aria-label="Add a profile photo"
          />
        </label>
      ) : state === 'saving' ? (
        <Spinner label="Saving your photo" />
      ) : state === 'success' ? (
        <>
          {url ? <img src={url} alt="Your new profile photo" className="size-24 rounded-full object-cover" /> : null}
          <p className="font-semibold text-success">Photo saved.</p>
        </>
      ) : (
        <p role="alert" className="text-center text-danger">
          {UPLOADS.avatarFailed}{' '}
          <button type="button" className="font-semibold underline" onClick={() => setState('initial')}>
            Try again
          </button>
        </p>
      )}
    </div>
  );
}

/** The placement questionnaire (docs/product/placement.md): 10 questions, a progress bar, one at a time, restart. */
export function Questionnaire() {
  const questions = useQuery({
    queryKey: ['placement-questions'],
    queryFn: async () => (await get<{ data: PlacementQuestion[] }>('/api/placement/questions')).data,
  });
  const [answers, setAnswers] = useState<number[]>([]);
  if (questions.isPending) return <Spinner />;
  if (questions.isError) return <p className="text-muted">We could not load the questionnaire.</p>;
  const list = questions.data.slice(0, LEARNING.placementQuestions);
  const index = answers.length;
  const restart = () => setAnswers([]);

  if (index >= list.length) {
    const score = placementScore(list, answers);
    const stage = stageFromScore(score);
    const title = stageTitleFromScore(score);
    return (
      <div className="mx-auto flex max-w-xl flex-col items-center gap-6 text-center">
        <p className="text-sm font-semibold uppercase tracking-wider text-muted">Your result</p>
        <h2 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h2>
        <img src={`/images/stages/stage-${stage}.svg`} alt={`Stage ${stage}`} className="w-full max-w-sm rounded-2xl" />
        <p className="text-lg text-muted">We placed you in Stage {stage}. Your learning path starts there.</p>
        <AvatarUpload />
        <div className="flex flex-wrap justify-center gap-3">
          <a href={WELCOME_COURSE} className={buttonClass('primary')}>
            Start Welcome Course
          </a>
          <button type="button" onClick={restart} className={buttonClass('ghost')}>
            <RotateCcw aria-hidden className="size-5" /> Restart
          </button>
        </div>
      </div>
    );
  }

  const q = list[index]!;
  const percent = Math.round((index / list.length) * 100);
  const answer = (option: number) => {
    const next = [...answers, option];
    setAnswers(next);
    if (next.length === list.length)
      post('/placement/set-stage', { stage: stageFromScore(placementScore(list, next)) }).catch(() => undefined);
  };
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6">
      <StepProgress label={`Question ${index + 1} of ${list.length}`} name="Questionnaire progress" percent={percent} />
      <h2 className="text-2xl font-bold">{q.title}</h2>
      <ChoiceButtons options={q.options} render={(o) => o.text} onChoose={answer} />
      {index > 0 ? (
        <button type="button" onClick={restart} className={clsx(buttonClass('ghost'), 'self-start')}>
          <RotateCcw aria-hidden className="size-5" /> Restart
        </button>
      ) : null}
    </div>
  );
}
