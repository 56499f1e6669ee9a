import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Link } from '#client/components/ui/link.tsx';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Plus, Trash2 } from 'lucide-react';
import {
  courseBodySchema,
  lessonBodySchema,
  slugify,
  type AdminCourse,
  type AdminCourseRow,
  type AdminLesson,
} from '#shared/admin-content';
import { api } from '#client/lib/api.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { DataTable, FilterSelect, useAdminList, type Column } from '#client/components/admin/list.tsx';
import {
  AdminTitle,
  Checkbox,
  ImageField,
  NewLink,
  Panel,
  Select,
  StatusBadge,
  TextArea,
} from '#client/components/admin/form.tsx';
import { EditPage, moved, NameSlugFields, RowTools, SaveRow, type Resource } from './parts.tsx';
import { formatWhen } from '#client/lib/dates.ts';
import { formClass, num, twoCols, useEditorCalls, useSubmit } from './editing.ts';

const COURSES: Resource = {
  noun: 'Course',
  plural: 'Courses',
  api: '/api/admin/courses',
  page: '/admin/courses',
  queryKey: 'admin-course',
  listKey: 'admin-courses',
};

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
      wrap: true,
      label: 'Title',
      sortable: true,
      render: (c) => (
        <Link to={`/admin/courses/${c.id}`} className="font-semibold text-accent-strong hover:underline">
          {c.title}
        </Link>
      ),
    },
    { key: 'slug', wrap: true, label: 'Slug', render: (c) => <span className="text-muted">{c.slug}</span> },
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
            <NameSlugFields
              label="Title"
              name={values.title}
              slug={values.slug}
              nameError={form.of('title')}
              slugError={form.of('slug')}
              slugHint="The course's address: /courses/<slug>"
              saved={!!course}
              onChange={({ name, slug }) => set({ title: name, slug })}
            />
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
