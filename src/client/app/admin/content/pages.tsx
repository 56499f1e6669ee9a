import { useEffect, useState, type FormEvent } from 'react';
import type { z } from '#shared/zod';
import { useNavigate, useParams } from 'react-router';
import { Link } from '#client/components/ui/link.tsx';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Plus, Trash2 } from 'lucide-react';
import {
  ACHIEVEMENT_RULE_LABELS,
  ACHIEVEMENT_RULES,
  achievementBodySchema,
  CONTENT,
  courseBodySchema,
  lessonBodySchema,
  pathsBodySchema,
  placementBodySchema,
  PLAN_KEYS,
  planLinksBodySchema,
  quizBodySchema,
  slugify,
  stageBodySchema,
  type AdminAchievement,
  type AdminCourse,
  type AdminCourseRow,
  type AdminLesson,
  type AdminStage,
  type AdminStageRow,
  type PlanLinks,
} from '#shared/admin-content';
import { isImageOption } from '#shared/learning';
import type { PlacementQuestion } from '#shared/placement';
import { api } from '#client/lib/api.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { DataTable, FilterSelect, Loading, useAdminList, type Column } from '#client/components/admin/list.tsx';
import {
  AdminTitle,
  BackLink,
  Checkbox,
  ImageField,
  NewLink,
  Panel,
  Select,
  StatusBadge,
  TextArea,
  useFormErrors,
} from '#client/components/admin/form.tsx';
import { AddButton, EditPage, moved, RowTools, SaveRow, useLoaded, type Resource } from './parts.tsx';
import { formatWhen } from '#client/lib/dates.ts';

const put = <T,>(url: string, body: unknown) => api<T>('PUT', url, body);
const del = <T,>(url: string) => api<T>('DELETE', url);
const num = (v: string) => (v.trim() === '' ? 0 : Number(v));
const formClass = 'flex flex-col gap-4';
const twoCols = 'grid gap-4 sm:grid-cols-2';

/** a form submit that validates with the shared schema, sends, and shows the server's field errors */
function useSubmit() {
  const form = useFormErrors();
  const [busy, setBusy] = useState(false);
  async function submit(
    e: FormEvent | null,
    schema: z.ZodType,
    values: unknown,
    send: (body: unknown) => Promise<void>,
  ) {
    e?.preventDefault();
    // a second submit while the first is on its way (the Save button stays focusable while busy)
    if (busy) return;
    const formEl = e?.currentTarget instanceof HTMLFormElement ? e.currentTarget : null;
    // the form's wrong fields are marked, announced and the first one focused (components/ui/form-feedback.ts)
    const body: unknown = form.check(schema, values, formEl);
    if (body === null) return;
    setBusy(true);
    try {
      await send(body);
    } catch (err) {
      form.fromServer(err, formEl);
    } finally {
      setBusy(false);
    }
  }
  return { form, busy, submit };
}

/**
 * Saving and deleting the object of an edit page (a course, a stage, an achievement): `save` updates
 * it in place, or creates it and opens its page; `remove` deletes it and goes back to the list. Both
 * refresh the list.
 */
function useEditorCalls<T extends { id: number }>({ noun, api: url, page: list, queryKey, listKey }: Resource) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  return {
    /** `cached`: what the edit page's cache keeps of an update's answer (the answer itself by default) */
    async save(item: T | null, body: unknown, cached: (saved: T, before: T) => T = (saved) => saved) {
      if (item) {
        const res = await put<{ data: T }>(`${url}/${item.id}`, body);
        qc.setQueryData([queryKey, String(item.id)], cached(res.data, item));
        toast(`${noun} saved.`);
      } else {
        const res = await api<{ data: T }>('POST', url, body);
        toast(`${noun} created.`);
        navigate(`${list}/${res.data.id}`);
      }
      await qc.invalidateQueries({ queryKey: [listKey] });
    },
    async remove(item: T) {
      await del(`${url}/${item.id}`);
      await qc.invalidateQueries({ queryKey: [listKey] });
      toast(`${noun} deleted.`);
      navigate(list);
    },
  };
}

const COURSES: Resource = {
  noun: 'Course',
  plural: 'Courses',
  api: '/api/admin/courses',
  page: '/admin/courses',
  queryKey: 'admin-course',
  listKey: 'admin-courses',
};
const STAGES: Resource = {
  noun: 'Stage',
  plural: 'Stages',
  api: '/api/admin/stages',
  page: '/admin/stages',
  queryKey: 'admin-stage',
  listKey: 'admin-stages',
};
const ACHIEVEMENTS: Resource = {
  noun: 'Achievement',
  plural: 'Achievements',
  api: '/api/admin/achievements',
  page: '/admin/achievements',
  queryKey: 'admin-achievement',
  listKey: 'admin-achievements',
};

// ======================= courses =======================

const AREA_OPTIONS: Array<[string, string]> = [
  ['main', 'Academy (main)'],
  ['mentorship', 'Mentorship area'],
];

/** /admin/courses */
export function AdminCoursesPage() {
  const result = useAdminList<AdminCourseRow>('admin-courses', '/api/admin/courses', ['area']);
  const columns: Column<AdminCourseRow>[] = [
    {
      key: 'title',
      label: 'Title',
      sortable: true,
      render: (c) => (
        <Link to={`/admin/courses/${c.id}`} className="font-semibold text-accent-strong hover:underline">
          {c.title}
        </Link>
      ),
    },
    { key: 'slug', label: 'Slug', render: (c) => <span className="text-muted">{c.slug}</span> },
    { key: 'area', label: 'Area', render: (c) => (c.area === 'main' ? 'Academy' : 'Mentorship') },
    {
      key: 'access',
      label: 'Access',
      render: (c) => (
        <span className="flex flex-wrap gap-1">
          <StatusBadge tone={c.members_only ? 'neutral' : 'good'}>
            {c.members_only ? 'Members only' : 'Free'}
          </StatusBadge>
          {c.is_welcome ? <StatusBadge tone="warn">Welcome course</StatusBadge> : null}
        </span>
      ),
    },
    { key: 'lessons', label: 'Lessons', render: (c) => c.lessons },
    { key: 'position', label: 'Position', sortable: true, render: (c) => c.position },
    {
      key: 'created_at',
      label: 'Created',
      sortable: true,
      render: (c) => formatWhen(c.created_at, undefined, { year: 'numeric', month: 'numeric', day: 'numeric' }),
    },
  ];
  return (
    <>
      <AdminTitle
        title="Courses & lessons"
        description="The academy's courses and the mentorship area's lessons. Open a course to edit it and its lessons."
        actions={<NewLink to="/admin/courses/new">New course</NewLink>}
      />
      <DataTable
        result={result}
        columns={columns}
        rowKey={(c) => c.id}
        searchLabel="Search title or slug"
        empty="No courses match."
        toolbar={
          <FilterSelect label="Area" name="area" list={result.list} options={[['', 'All areas'], ...AREA_OPTIONS]} />
        }
      />
    </>
  );
}

interface CourseForm {
  title: string;
  slug: string;
  description: string;
  image_url: string | null;
  members_only: boolean;
  area: 'main' | 'mentorship';
  is_welcome: boolean;
  position: string;
}
const emptyCourse: CourseForm = {
  title: '',
  slug: '',
  description: '',
  image_url: null,
  members_only: true,
  area: 'main',
  is_welcome: false,
  position: '0',
};

/** /admin/courses/new and /admin/courses/:id */
export function AdminCourseEditPage() {
  return <EditPage<AdminCourse> resource={COURSES}>{(course) => <CourseEditor course={course} />}</EditPage>;
}

function CourseEditor({ course }: { course: AdminCourse | null }) {
  const calls = useEditorCalls<AdminCourse>(COURSES);
  const [confirm, dialog] = useConfirm();
  const [values, setValues] = useState<CourseForm>(
    course
      ? {
          title: course.title,
          slug: course.slug,
          description: course.description,
          image_url: course.image_url,
          members_only: course.members_only,
          area: course.area,
          is_welcome: course.is_welcome,
          position: String(course.position),
        }
      : emptyCourse,
  );
  const [slugTouched, setSlugTouched] = useState(!!course);
  const { form, busy, submit } = useSubmit();
  const set = (patch: Partial<CourseForm>) => setValues((v) => ({ ...v, ...patch }));

  async function save(e: FormEvent) {
    await submit(e, courseBodySchema, { ...values, position: num(values.position) }, (body) =>
      calls.save(course, body),
    );
  }

  async function remove() {
    if (!course) return;
    const progress = course.members_with_progress;
    const text = `Delete “${course.title}” and its ${course.lessons.length} lessons?${progress ? ` ${progress} ${progress === 1 ? 'member has' : 'members have'} progress in it; their progress will be deleted too.` : ''} This cannot be undone.`;
    if (!(await confirm(text, { confirmLabel: 'Delete course', danger: true }))) return;
    await calls.remove(course);
  }

  return (
    <>
      <AdminTitle
        title={course ? course.title : 'New course'}
        actions={
          course && course.area === 'main' ? (
            <a href={`/courses/${course.slug}`} className={buttonClass('secondary')} target="_blank" rel="noreferrer">
              <ExternalLink aria-hidden className="size-5" /> View
            </a>
          ) : undefined
        }
      />
      <div className="flex flex-col gap-6">
        <Panel title="Course">
          <form noValidate onSubmit={save} className={formClass}>
            <div className={twoCols}>
              <Field
                label="Title"
                value={values.title}
                error={form.of('title')}
                onChange={(e) =>
                  set({ title: e.target.value, ...(slugTouched ? {} : { slug: slugify(e.target.value) }) })
                }
              />
              <Field
                label="Slug"
                value={values.slug}
                error={form.of('slug')}
                hint="The course's address: /courses/<slug>"
                onChange={(e) => {
                  setSlugTouched(true);
                  set({ slug: e.target.value });
                }}
              />
            </div>
            <TextArea
              label="Description"
              value={values.description}
              error={form.of('description')}
              onChange={(e) => set({ description: e.target.value })}
            />
            <ImageField
              label="Image"
              value={values.image_url}
              error={form.of('image_url')}
              onChange={(url) => set({ image_url: url })}
            />
            <div className={twoCols}>
              <Select
                label="Area"
                value={values.area}
                options={AREA_OPTIONS}
                error={form.of('area')}
                onChange={(e) => set({ area: e.target.value as CourseForm['area'] })}
              />
              <Field
                label="Position"
                type="number"
                inputMode="numeric"
                min={0}
                value={values.position}
                error={form.of('position')}
                hint="Lower numbers are listed first."
                onChange={(e) => set({ position: e.target.value })}
              />
            </div>
            <Checkbox
              label="Members only"
              checked={values.members_only}
              hint="Unticked: free members can watch its free lessons too."
              onChange={(v) => set({ members_only: v })}
              error={form.of('members_only')}
            />
            <Checkbox
              label="Welcome course"
              checked={values.is_welcome}
              hint="The course the placement questionnaire sends new members to. Only one course is the welcome course: ticking this clears it on the other."
              onChange={(v) => set({ is_welcome: v })}
              error={form.of('is_welcome')}
            />
            <SaveRow
              error={form.formError}
              busy={busy}
              label={course ? 'Save course' : 'Create course'}
              extra={
                course ? (
                  <Button variant="danger" onClick={() => void remove()}>
                    <Trash2 aria-hidden className="size-5" /> Delete course
                  </Button>
                ) : null
              }
            />
          </form>
        </Panel>
        {course ? <CourseLessons course={course} /> : null}
      </div>
      {dialog}
    </>
  );
}

function CourseLessons({ course }: { course: AdminCourse }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const { form, busy, submit } = useSubmit();
  const move = useMutation({
    mutationFn: ({ id, direction }: { id: number; direction: 'up' | 'down' }) =>
      api<{ data: AdminCourse }>('POST', `/api/admin/lessons/${id}/move`, { direction }),
    onMutate: ({ id, direction }) => {
      // optimistic: the row moves at once
      const i = course.lessons.findIndex((l) => l.id === id);
      qc.setQueryData(['admin-course', String(course.id)], {
        ...course,
        lessons: moved(course.lessons, i, direction === 'up' ? -1 : 1),
      });
    },
    onSuccess: (res) => qc.setQueryData(['admin-course', String(course.id)], res.data),
    onError: () => {
      toast('The lesson could not be moved.', 'danger');
      void qc.invalidateQueries({ queryKey: ['admin-course', String(course.id)] });
    },
  });
  async function add(e: FormEvent) {
    const values = {
      title,
      slug: slugify(title) || 'lesson',
      members_only: course.members_only,
      position: 0,
      description: '',
      video_url: '',
    };
    await submit(e, lessonBodySchema, values, async (body) => {
      const res = await api<{ data: AdminLesson }>('POST', `/api/admin/courses/${course.id}/lessons`, body);
      await qc.invalidateQueries({ queryKey: ['admin-courses'] });
      navigate(`/admin/lessons/${res.data.id}`);
    });
  }
  return (
    <Panel title={`Lessons (${course.lessons.length})`}>
      {course.lessons.length === 0 ? (
        <p className="mb-4 text-muted">No lessons yet.</p>
      ) : (
        <ol className="mb-6 flex flex-col divide-y divide-line rounded-xl border border-line">
          {course.lessons.map((l, i) => (
            <li key={l.id} className="flex items-center gap-3 px-3 py-2">
              <span className="tabular w-6 shrink-0 text-muted">{i + 1}.</span>
              <Link
                to={`/admin/lessons/${l.id}`}
                className="min-w-0 flex-1 wrap-anywhere font-semibold text-accent-strong hover:underline"
              >
                {l.title}
              </Link>
              <span className="hidden sm:inline">
                <StatusBadge tone={l.members_only ? 'neutral' : 'good'}>
                  {l.members_only ? 'Members only' : 'Free'}
                </StatusBadge>
              </span>
              <RowTools
                label={l.title}
                index={i}
                count={course.lessons.length}
                onMove={(by) => move.mutate({ id: l.id, direction: by === -1 ? 'up' : 'down' })}
              />
            </li>
          ))}
        </ol>
      )}
      <form noValidate onSubmit={add} className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Field
          label="New lesson title"
          className="flex-1"
          value={title}
          error={form.of('title') ?? form.of('slug')}
          onChange={(e) => setTitle(e.target.value)}
        />
        <Button type="submit" disabled={busy} className="sm:mt-7">
          <Plus aria-hidden className="size-5" /> Add lesson
        </Button>
      </form>
    </Panel>
  );
}

// ======================= lessons =======================

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

// ======================= stages =======================

/** /admin/stages */
export function AdminStagesPage() {
  const result = useAdminList<AdminStageRow>('admin-stages', '/api/admin/stages');
  const columns: Column<AdminStageRow>[] = [
    { key: 'id', label: 'Stage', sortable: true, render: (s) => s.id },
    {
      key: 'title',
      label: 'Title',
      sortable: true,
      render: (s) => (
        <Link to={`/admin/stages/${s.id}`} className="font-semibold text-accent-strong hover:underline">
          {s.title}
        </Link>
      ),
    },
    { key: 'steps', label: 'Checklist steps', render: (s) => s.steps },
  ];
  return (
    <>
      <AdminTitle
        title="Stages"
        description="The stages members move through, and each stage's checklist."
        actions={<NewLink to="/admin/stages/new">New stage</NewLink>}
      />
      <DataTable
        result={result}
        columns={columns}
        rowKey={(s) => s.id}
        searchLabel="Search stages"
        empty="No stages match."
      />
    </>
  );
}

/** /admin/stages/new and /admin/stages/:id */
export function AdminStageEditPage() {
  return <EditPage<AdminStage> resource={STAGES}>{(stage) => <StageEditor stage={stage} />}</EditPage>;
}

function StageEditor({ stage }: { stage: AdminStage | null }) {
  const calls = useEditorCalls<AdminStage>(STAGES);
  const [confirm, dialog] = useConfirm();
  const [values, setValues] = useState({
    title: stage?.title ?? '',
    description: stage?.description ?? '',
    image_url: stage?.image_url ?? null,
  });
  const [steps, setSteps] = useState<string[]>(stage?.steps ?? []);
  const { form, busy, submit } = useSubmit();
  async function save(e: FormEvent) {
    await submit(e, stageBodySchema, { ...values, steps }, (body) => calls.save(stage, body));
  }
  async function remove() {
    if (!stage) return;
    if (
      !(await confirm(`Delete stage ${stage.id}, “${stage.title}”? Members' ticks on its checklist are deleted too.`, {
        confirmLabel: 'Delete stage',
        danger: true,
      }))
    )
      return;
    await calls.remove(stage);
  }
  return (
    <>
      <AdminTitle
        title={stage ? `Stage ${stage.id}: ${stage.title}` : 'New stage'}
        description={stage ? undefined : 'A new stage takes the next number after the last stage.'}
      />
      <Panel>
        <form noValidate onSubmit={save} className={formClass}>
          <Field
            label="Title"
            value={values.title}
            error={form.of('title')}
            onChange={(e) => setValues((v) => ({ ...v, title: e.target.value }))}
          />
          <TextArea
            label="Description"
            value={values.description}
            error={form.of('description')}
            onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
          />
          <ImageField
            label="Image"
            value={values.image_url}
            error={form.of('image_url')}
            onChange={(url) => setValues((v) => ({ ...v, image_url: url }))}
          />
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-1 text-lg font-bold">Checklist</legend>
            <p className="text-sm text-muted">{CONTENT.stepHashHint}</p>
            {steps.map((s, i) => (
              <div key={i} className="flex flex-col gap-1 sm:flex-row sm:items-start sm:gap-2">
                <Field
                  label={`Step ${i + 1}`}
                  className="flex-1"
                  value={s}
                  error={form.of(`steps.${i}`)}
                  onChange={(e) => setSteps((list) => list.map((x, j) => (j === i ? e.target.value : x)))}
                />
                <div className="self-end sm:mt-7 sm:self-start">
                  <RowTools
                    label={`step ${i + 1}`}
                    index={i}
                    count={steps.length}
                    onMove={(by) => setSteps((list) => moved(list, i, by))}
                    onRemove={() => setSteps((list) => list.filter((_, j) => j !== i))}
                  />
                </div>
              </div>
            ))}
            <AddButton onClick={() => setSteps((list) => [...list, ''])}>Add step</AddButton>
          </fieldset>
          <SaveRow
            error={form.formError}
            busy={busy}
            label={stage ? 'Save stage' : 'Create stage'}
            extra={
              stage ? (
                <Button variant="danger" onClick={() => void remove()}>
                  <Trash2 aria-hidden className="size-5" /> Delete stage
                </Button>
              ) : null
            }
          />
        </form>
      </Panel>
      {dialog}
    </>
  );
}

// ======================= achievements =======================

/** /admin/achievements */
export function AdminAchievementsPage() {
  const result = useAdminList<AdminAchievement>('admin-achievements', '/api/admin/achievements');
  const columns: Column<AdminAchievement>[] = [
    {
      key: 'name',
      label: 'Name',
      sortable: true,
      render: (a) => (
        <Link
          to={`/admin/achievements/${a.id}`}
          className="inline-flex items-center gap-2 font-semibold text-accent-strong hover:underline"
        >
          <img src={a.image_url} alt="" className="size-8 rounded-lg" /> {a.name}
        </Link>
      ),
    },
    { key: 'rule', label: 'Counts', sortable: true, render: (a) => ACHIEVEMENT_RULE_LABELS[a.rule] ?? a.rule },
    { key: 'threshold', label: 'Threshold', sortable: true, render: (a) => a.threshold },
    { key: 'position', label: 'Position', sortable: true, render: (a) => a.position },
    {
      key: 'unlocked_by',
      label: 'Unlocked by',
      render: (a) => `${a.unlocked_by} ${a.unlocked_by === 1 ? 'member' : 'members'}`,
    },
  ];
  return (
    <>
      <AdminTitle
        title="Achievements"
        description="Badges members unlock when a count reaches its threshold."
        actions={<NewLink to="/admin/achievements/new">New achievement</NewLink>}
      />
      <DataTable
        result={result}
        columns={columns}
        rowKey={(a) => a.id}
        searchLabel="Search achievements"
        empty="No achievements match."
      />
    </>
  );
}

/** /admin/achievements/new and /admin/achievements/:id */
export function AdminAchievementEditPage() {
  return (
    <EditPage<AdminAchievement> resource={ACHIEVEMENTS}>
      {(achievement) => <AchievementEditor achievement={achievement} />}
    </EditPage>
  );
}

function AchievementEditor({ achievement }: { achievement: AdminAchievement | null }) {
  const calls = useEditorCalls<AdminAchievement>(ACHIEVEMENTS);
  const [confirm, dialog] = useConfirm();
  const [values, setValues] = useState({
    name: achievement?.name ?? '',
    slug: achievement?.slug ?? '',
    description: achievement?.description ?? '',
    image_url: achievement?.image_url ?? null,
    rule: achievement?.rule ?? 'lessons',
    threshold: String(achievement?.threshold ?? 1),
    position: String(achievement?.position ?? 0),
  });
  const [slugTouched, setSlugTouched] = useState(!!achievement);
  const set = (patch: Partial<typeof values>) => setValues((v) => ({ ...v, ...patch }));
  const { form, busy, submit } = useSubmit();
  async function save(e: FormEvent) {
    await submit(
      e,
      achievementBodySchema,
      {
        ...values,
        image_url: values.image_url ?? '',
        threshold: values.threshold.trim() === '' ? undefined : Number(values.threshold),
        position: num(values.position),
      },
      (body) =>
        // the answer does not count who unlocked it: keep the count the page already has
        calls.save(achievement, body, (saved, before) => ({ ...saved, unlocked_by: before.unlocked_by })),
    );
  }
  async function remove() {
    if (!achievement) return;
    const n = achievement.unlocked_by;
    if (
      !(await confirm(
        `Delete “${achievement.name}”?${n ? ` ${n} ${n === 1 ? 'member has' : 'members have'} unlocked it; it disappears from their profile.` : ''}`,
        { confirmLabel: 'Delete achievement', danger: true },
      ))
    )
      return;
    await calls.remove(achievement);
  }
  return (
    <>
      <AdminTitle title={achievement ? achievement.name : 'New achievement'} />
      <Panel>
        <form noValidate onSubmit={save} className={formClass}>
          <div className={twoCols}>
            <Field
              label="Name"
              value={values.name}
              error={form.of('name')}
              onChange={(e) => set({ name: e.target.value, ...(slugTouched ? {} : { slug: slugify(e.target.value) }) })}
            />
            <Field
              label="Slug"
              value={values.slug}
              error={form.of('slug')}
              onChange={(e) => {
                setSlugTouched(true);
                set({ slug: e.target.value });
              }}
            />
          </div>
          <TextArea
            label="Description"
            value={values.description}
            error={form.of('description')}
            onChange={(e) => set({ description: e.target.value })}
          />
          <ImageField
            label="Image"
            value={values.image_url}
            error={form.of('image_url')}
            onChange={(url) => set({ image_url: url })}
          />
          <div className="grid gap-4 sm:grid-cols-3">
            <Select
              label="Counts"
              value={values.rule}
              options={ACHIEVEMENT_RULES.map((r): [string, string] => [r, ACHIEVEMENT_RULE_LABELS[r]])}
              error={form.of('rule')}
              onChange={(e) => set({ rule: e.target.value as typeof values.rule })}
            />
            <Field
              label="Threshold"
              type="number"
              inputMode="numeric"
              min={1}
              value={values.threshold}
              error={form.of('threshold')}
              hint="Unlocked when the count reaches this."
              onChange={(e) => set({ threshold: e.target.value })}
            />
            <Field
              label="Position"
              type="number"
              inputMode="numeric"
              min={0}
              value={values.position}
              error={form.of('position')}
              onChange={(e) => set({ position: e.target.value })}
            />
          </div>
          <SaveRow
            error={form.formError}
            busy={busy}
            label={achievement ? 'Save achievement' : 'Create achievement'}
            extra={
              achievement ? (
                <Button variant="danger" onClick={() => void remove()}>
                  <Trash2 aria-hidden className="size-5" /> Delete achievement
                </Button>
              ) : null
            }
          />
        </form>
      </Panel>
      {dialog}
    </>
  );
}

// ======================= placement =======================

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

// ======================= foot-speed plans =======================

/** /admin/foot-speed */
export function AdminFootSpeedPage() {
  const query = useLoaded<{ links: PlanLinks }>(['admin-foot-speed'], '/api/admin/foot-speed');
  return (
    <>
      <AdminTitle
        title="Foot-speed plans"
        description="The practice plan the foot-speed diagnostic recommends for each skill level and pedal setup."
      />
      <Loading query={query}>{(data) => <FootSpeedEditor key={query.dataUpdatedAt} initial={data.links} />}</Loading>
    </>
  );
}

function FootSpeedEditor({ initial }: { initial: PlanLinks }) {
  const qc = useQueryClient();
  const [links, setLinks] = useState<PlanLinks>(initial);
  useEffect(() => setLinks(initial), [initial]);
  const { form, busy, submit } = useSubmit();
  async function save(e: FormEvent) {
    await submit(e, planLinksBodySchema, { links }, async (body) => {
      const res = await put<{ data: { links: PlanLinks } }>('/api/admin/foot-speed', body);
      qc.setQueryData(['admin-foot-speed'], res.data);
      toast('Practice-plan links saved.');
    });
  }
  return (
    <Panel>
      <form noValidate onSubmit={save} className={formClass}>
        <div className={twoCols}>
          {PLAN_KEYS.map(({ key, skill, pedal }) => (
            <Field
              key={key}
              label={`${skill}, ${pedal.toLowerCase()}`}
              type="url"
              inputMode="url"
              value={links[key] ?? ''}
              error={form.of(`links.${key}`)}
              onChange={(e) => setLinks((l) => ({ ...l, [key]: e.target.value }))}
            />
          ))}
        </div>
        <SaveRow error={form.formError} busy={busy} label="Save plan links" />
      </form>
    </Panel>
  );
}
