import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Trash2 } from 'lucide-react';
import { CONTENT, lessonBodySchema, pathsBodySchema, quizBodySchema, type AdminLesson } from '#shared/admin-content';
import { isImageOption } from '#shared/learning';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { Loading } from '#client/components/admin/list.tsx';
import { AdminTitle, BackLink, ImageField, Panel, Select, TextArea } from '#client/components/admin/form.tsx';
import { AddButton, moved, RowTools, SaveRow, useLoaded } from './parts.tsx';
import { del, formClass, num, put, twoCols, useSubmit } from './editing.ts';

/** /admin/lessons/:id */
export function AdminLessonEditPage() {
  const { id } = useParams();
  const query = useLoaded<AdminLesson>(['admin-lesson', id], `/api/admin/lessons/${id}`);
  return (
    <Loading query={query}>
      {(lesson) => (
        <>
          <BackLink to={`/admin/courses/${lesson.course.id}`}>{lesson.course.title}</BackLink>
          <AdminTitle
            title={lesson.title}
            actions={
              lesson.course.area === 'main' ? (
                <a href={`/lessons/${lesson.id}`} className={buttonClass('secondary')} target="_blank" rel="noreferrer">
                  <ExternalLink aria-hidden className="size-5" /> View
                </a>
              ) : undefined
            }
          />
          <div className="flex flex-col gap-6">
            <LessonDetails key={`d${lesson.id}`} lesson={lesson} />
            <LessonPaths key={`p${lesson.id}`} lesson={lesson} />
            <LessonQuiz key={`q${lesson.id}`} lesson={lesson} />
          </div>
        </>
      )}
    </Loading>
  );
}

function useLessonSaved(lesson: AdminLesson) {
  const qc = useQueryClient();
  return async (data: AdminLesson, message: string) => {
    qc.setQueryData(['admin-lesson', String(lesson.id)], data);
    await qc.invalidateQueries({ queryKey: ['admin-course', String(lesson.course.id)] });
    toast(message);
  };
}

const lessonValues = (lesson: AdminLesson) => ({
  title: lesson.title,
  slug: lesson.slug,
  description: lesson.description,
  video_url: lesson.video_url ?? '',
  members_only: lesson.members_only,
  position: String(lesson.position),
  next_lesson_id: lesson.next_lesson_id === null ? '' : String(lesson.next_lesson_id),
});

function LessonDetails({ lesson }: { lesson: AdminLesson }) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const saved = useLessonSaved(lesson);
  const [confirm, dialog] = useConfirm();
  const [values, setValues] = useState(() => lessonValues(lesson));
  const set = (patch: Partial<typeof values>) => setValues((v) => ({ ...v, ...patch }));
  const { form, busy, submit } = useSubmit();
  async function save(e: FormEvent) {
    await submit(
      e,
      lessonBodySchema,
      {
        ...values,
        position: num(values.position),
        next_lesson_id: values.next_lesson_id === '' ? null : Number(values.next_lesson_id),
      },
      async (body) => {
        const stored = (await put<{ data: AdminLesson }>(`/api/admin/lessons/${lesson.id}`, body)).data;
        // the form shows what was stored (trimmed, the slug as kept) and stays where it is: focus stays on Save
        setValues(lessonValues(stored));
        await saved(stored, 'Lesson saved.');
      },
    );
  }
  async function remove() {
    const progress = lesson.members_with_progress;
    const text = `Delete the lesson “${lesson.title}”?${progress ? ` ${progress} ${progress === 1 ? 'member has' : 'members have'} completed it; that progress will be deleted too.` : ''} This cannot be undone.`;
    if (!(await confirm(text, { confirmLabel: 'Delete lesson', danger: true }))) return;
    await del(`/api/admin/lessons/${lesson.id}`);
    await qc.invalidateQueries({ queryKey: ['admin-course', String(lesson.course.id)] });
    toast('Lesson deleted.');
    navigate(`/admin/courses/${lesson.course.id}`);
  }
  return (
    <Panel title="Lesson">
      <form noValidate onSubmit={save} className={formClass}>
        <div className={twoCols}>
          <Field
            label="Title"
            value={values.title}
            error={form.of('title')}
            onChange={(e) => set({ title: e.target.value })}
          />
          <Field
            label="Slug"
            value={values.slug}
            error={form.of('slug')}
            onChange={(e) => set({ slug: e.target.value })}
          />
        </div>
        <TextArea
          label="Description"
          value={values.description}
          error={form.of('description')}
          onChange={(e) => set({ description: e.target.value })}
        />
        <Field
          label="Video embed address"
          type="url"
          inputMode="url"
          placeholder="https://www.youtube-nocookie.com/embed/…"
          value={values.video_url}
          error={form.of('video_url')}
          onChange={(e) => set({ video_url: e.target.value })}
        />
        <div className={twoCols}>
          <Select
            label="Access"
            value={values.members_only ? 'members' : 'free'}
            options={[
              ['members', 'Members only'],
              ['free', 'Free (any signed-in member)'],
            ]}
            error={form.of('members_only')}
            onChange={(e) => set({ members_only: e.target.value === 'members' })}
          />
          <Field
            label="Position"
            type="number"
            inputMode="numeric"
            min={0}
            value={values.position}
            error={form.of('position')}
            hint="Order in the course; the course page also moves lessons up and down."
            onChange={(e) => set({ position: e.target.value })}
          />
        </div>
        <Select
          label="Next lesson"
          value={values.next_lesson_id}
          options={[
            ['', 'The next one in the course order'],
            ...lesson.lesson_choices.map((c): [string, string] => [String(c.id), `${c.course_title} — ${c.title}`]),
          ]}
          error={form.of('next_lesson_id')}
          hint="Where the lesson's “next lesson” button and the quiz result lead."
          onChange={(e) => set({ next_lesson_id: e.target.value })}
        />
        <SaveRow
          error={form.formError}
          busy={busy}
          label="Save lesson"
          extra={
            <Button variant="danger" onClick={() => void remove()}>
              <Trash2 aria-hidden className="size-5" /> Delete lesson
            </Button>
          }
        />
      </form>
      {dialog}
    </Panel>
  );
}

function LessonPaths({ lesson }: { lesson: AdminLesson }) {
  const saved = useLessonSaved(lesson);
  const [paths, setPaths] = useState(lesson.paths.map((p) => ({ title: p.title, url: p.url })));
  const { form, busy, submit } = useSubmit();
  const edit = (i: number, patch: Partial<{ title: string; url: string }>) =>
    setPaths((list) => list.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  async function save(e: FormEvent) {
    await submit(e, pathsBodySchema, { paths }, async (body) => {
      await saved(
        (await put<{ data: AdminLesson }>(`/api/admin/lessons/${lesson.id}/paths`, body)).data,
        'Notation paths saved.',
      );
    });
  }
  return (
    <Panel title="Notation paths">
      <form noValidate onSubmit={save} className={formClass}>
        {paths.length === 0 ? <p className="text-muted">No notation paths.</p> : null}
        {paths.map((p, i) => (
          <fieldset
            key={i}
            className="flex flex-col gap-3 rounded-xl border border-line p-3 sm:flex-row sm:items-start"
          >
            <legend className="sr-only">Notation path {i + 1}</legend>
            <Field
              label={`Path ${i + 1} title`}
              className="flex-1"
              value={p.title}
              error={form.of(`paths.${i}.title`)}
              onChange={(e) => edit(i, { title: e.target.value })}
            />
            <Field
              label={`Path ${i + 1} address`}
              className="flex-1"
              type="url"
              inputMode="url"
              placeholder="https://www.soundslice.com/slices/…"
              value={p.url}
              error={form.of(`paths.${i}.url`)}
              onChange={(e) => edit(i, { url: e.target.value })}
            />
            <div className="sm:mt-7">
              <RowTools
                label={`path ${i + 1}`}
                index={i}
                count={paths.length}
                onMove={(by) => setPaths((list) => moved(list, i, by))}
                onRemove={() => setPaths((list) => list.filter((_, j) => j !== i))}
              />
            </div>
          </fieldset>
        ))}
        <AddButton onClick={() => setPaths((list) => [...list, { title: '', url: '' }])}>Add notation path</AddButton>
        {form.errors.paths ? <p className="text-sm font-medium text-danger">{form.errors.paths}</p> : null}
        <SaveRow error={form.formError} busy={busy} label="Save notation paths" />
      </form>
    </Panel>
  );
}

type QuizDraft = { title: string; imageUrl: string | null; options: string[]; correct: number };

function LessonQuiz({ lesson }: { lesson: AdminLesson }) {
  const saved = useLessonSaved(lesson);
  const [questions, setQuestions] = useState<QuizDraft[]>(
    lesson.quiz.map((q) => ({ ...q, imageUrl: q.imageUrl ?? null })),
  );
  const { form, busy, submit } = useSubmit();
  const edit = (i: number, patch: Partial<QuizDraft>) =>
    setQuestions((list) => list.map((q, j) => (j === i ? { ...q, ...patch } : q)));
  async function save(e: FormEvent) {
    await submit(e, quizBodySchema, { questions }, async (body) => {
      await saved(
        (await put<{ data: AdminLesson }>(`/api/admin/lessons/${lesson.id}/quiz`, body)).data,
        questions.length ? 'Quiz saved.' : 'Quiz removed.',
      );
    });
  }
  return (
    <Panel title="Quiz">
      <form noValidate onSubmit={save} className={formClass}>
        <p className="text-muted">Members pass with 70% or more. No questions means the lesson has no quiz.</p>
        {questions.map((q, i) => (
          <fieldset key={i} className="flex flex-col gap-3 rounded-xl border border-line p-3 sm:p-4">
            <legend className="px-1 font-bold">Question {i + 1}</legend>
            <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:gap-2">
              <Field
                label={`Question ${i + 1}`}
                className="flex-1"
                value={q.title}
                error={form.of(`questions.${i}.title`)}
                onChange={(e) => edit(i, { title: e.target.value })}
              />
              <div className="self-end sm:mt-7 sm:self-start">
                <RowTools
                  label={`question ${i + 1}`}
                  index={i}
                  count={questions.length}
                  onMove={(by) => setQuestions((list) => moved(list, i, by))}
                  onRemove={() => setQuestions((list) => list.filter((_, j) => j !== i))}
                />
              </div>
            </div>
            <ImageField
              label={`Question ${i + 1} image (optional)`}
              value={q.imageUrl}
              error={form.of(`questions.${i}.imageUrl`)}
              onChange={(url) => edit(i, { imageUrl: url })}
            />
            <div
              role="radiogroup"
              aria-label={`Question ${i + 1}: options and the correct answer`}
              className="flex flex-col gap-2"
            >
              <p className="text-sm font-semibold">
                Options (text, or an image address ending gif, jpg, jpeg or png) — choose the correct one
              </p>
              {q.options.map((o, k) => (
                <div key={k} className="flex items-start gap-2">
                  <label className="mt-3 flex shrink-0 items-center gap-1 text-sm">
                    <input
                      type="radio"
                      name={`correct-${i}`}
                      checked={q.correct === k}
                      onChange={() => edit(i, { correct: k })}
                      className="size-5 accent-accent"
                      aria-label={`Option ${k + 1} is correct`}
                    />
                  </label>
                  <Field
                    label={`Option ${k + 1}`}
                    className="flex-1"
                    value={o}
                    error={form.of(`questions.${i}.options.${k}`)}
                    onChange={(e) => edit(i, { options: q.options.map((x, m) => (m === k ? e.target.value : x)) })}
                  />
                  {isImageOption(o) ? (
                    <img src={o} alt="" className="mt-7 size-12 shrink-0 rounded-lg border border-line object-cover" />
                  ) : null}
                  <button
                    type="button"
                    aria-label={`Remove option ${k + 1} of question ${i + 1}`}
                    disabled={q.options.length <= 2}
                    onClick={() =>
                      edit(i, {
                        options: q.options.filter((_, m) => m !== k),
                        correct: q.correct > k ? q.correct - 1 : q.correct === k ? 0 : q.correct,
                      })
                    }
                    className="mt-7 grid size-11 shrink-0 place-items-center rounded-xl text-danger hover:bg-danger-soft disabled:opacity-40"
                  >
                    <Trash2 aria-hidden className="size-5" />
                  </button>
                </div>
              ))}
              {form.errors[`questions.${i}.options`] ? (
                <p className="text-sm font-medium text-danger">{form.errors[`questions.${i}.options`]}</p>
              ) : null}
              {form.errors[`questions.${i}.correct`] ? (
                <p className="text-sm font-medium text-danger">{form.errors[`questions.${i}.correct`]}</p>
              ) : null}
              {q.options.length < CONTENT.optionsMax ? (
                <AddButton onClick={() => edit(i, { options: [...q.options, ''] })}>Add option</AddButton>
              ) : null}
            </div>
          </fieldset>
        ))}
        <AddButton
          onClick={() =>
            setQuestions((list) => [...list, { title: '', imageUrl: null, options: ['', ''], correct: 0 }])
          }
        >
          Add question
        </AddButton>
        <SaveRow error={form.formError} busy={busy} label="Save quiz" />
      </form>
    </Panel>
  );
}
