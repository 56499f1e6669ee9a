import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { placementBodySchema } from '#shared/admin-content';
import type { PlacementQuestion } from '#shared/placement';
import { Field } from '#client/components/ui/field.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { Loading } from '#client/components/admin/list.tsx';
import { AdminTitle, Panel } from '#client/components/admin/form.tsx';
import { AddButton, SaveRow, useLoaded } from './parts.tsx';
import { formClass, put, useSubmit } from './editing.ts';

/** /admin/placement */
export function AdminPlacementPage() {
  const query = useLoaded<{ questions: PlacementQuestion[] }>(['admin-placement'], '/api/admin/placement');
  return (
    <>
      <AdminTitle
        title="Placement quiz"
        description="The placement questionnaire's questions and the points of each option. The stage comes from the total points."
      />
      <Loading query={query}>
        {(data) => <PlacementEditor key={query.dataUpdatedAt} initial={data.questions} />}
      </Loading>
    </>
  );
}

type PlacementDraft = { title: string; options: Array<{ text: string; points: string }> };

function PlacementEditor({ initial }: { initial: PlacementQuestion[] }) {
  const qc = useQueryClient();
  const [questions, setQuestions] = useState<PlacementDraft[]>(
    initial.map((q) => ({
      title: q.title,
      options: q.options.map((o) => ({ text: o.text, points: String(o.points) })),
    })),
  );
  const { form, busy, submit } = useSubmit();
  const edit = (i: number, patch: Partial<PlacementDraft>) =>
    setQuestions((list) => list.map((q, j) => (j === i ? { ...q, ...patch } : q)));
  const maxTotal = questions.reduce((sum, q) => sum + Math.max(0, ...q.options.map((o) => Number(o.points) || 0)), 0);
  async function save(e: FormEvent) {
    const values = {
      questions: questions.map((q) => ({
        title: q.title,
        options: q.options.map((o) => ({
          text: o.text,
          points: o.points.trim() === '' ? undefined : Number(o.points),
        })),
      })),
    };
    await submit(e, placementBodySchema, values, async (body) => {
      const res = await put<{ data: { questions: PlacementQuestion[] } }>('/api/admin/placement', body);
      qc.setQueryData(['admin-placement'], res.data);
      toast('Placement questions saved.');
    });
  }
  return (
    <form noValidate onSubmit={save} className={formClass}>
      <p className="text-muted">
        Stage bands: 0–11 points stage 1, 12–19 stage 2, 20–27 stage 3, 28–33 stage 4, 34 or more stage 5. The highest
        total these options allow is <strong className="tabular">{maxTotal}</strong>.
      </p>
      {questions.map((q, i) => (
        <Panel key={i}>
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-2 font-bold">Question {i + 1}</legend>
            <Field
              label={`Question ${i + 1}`}
              value={q.title}
              error={form.of(`questions.${i}.title`)}
              onChange={(e) => edit(i, { title: e.target.value })}
            />
            {q.options.map((o, k) => (
              <div key={k} className="flex items-start gap-2">
                <Field
                  label={`Option ${k + 1}`}
                  className="flex-1"
                  value={o.text}
                  error={form.of(`questions.${i}.options.${k}.text`)}
                  onChange={(e) =>
                    edit(i, { options: q.options.map((x, m) => (m === k ? { ...x, text: e.target.value } : x)) })
                  }
                />
                <Field
                  label="Points"
                  className="w-24"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={10}
                  value={o.points}
                  error={form.of(`questions.${i}.options.${k}.points`)}
                  onChange={(e) =>
                    edit(i, { options: q.options.map((x, m) => (m === k ? { ...x, points: e.target.value } : x)) })
                  }
                />
                <button
                  type="button"
                  aria-label={`Remove option ${k + 1} of question ${i + 1}`}
                  disabled={q.options.length <= 2}
                  onClick={() => edit(i, { options: q.options.filter((_, m) => m !== k) })}
                  className="mt-7 grid size-11 shrink-0 place-items-center rounded-xl text-danger hover:bg-danger-soft disabled:opacity-40"
                >
                  <Trash2 aria-hidden className="size-5" />
                </button>
              </div>
            ))}
            {q.options.length < 8 ? (
              <AddButton onClick={() => edit(i, { options: [...q.options, { text: '', points: '0' }] })}>
                Add option
              </AddButton>
            ) : null}
          </fieldset>
        </Panel>
      ))}
      <SaveRow error={form.formError} busy={busy} label="Save placement questions" />
    </form>
  );
}
