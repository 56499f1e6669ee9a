import { JOIN_URL } from '#shared/commerce';
import { ChevronRight, Lock, Music } from 'lucide-react';
import clsx from 'clsx';
import { LEARNING } from '#shared/learning';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { VideoEmbed } from '#client/components/ui/video-embed.tsx';
import { pageConfig } from '#client/lib/page-config.ts';
import {
  useContinueLesson,
  useCourse,
  useCourses,
  useLesson,
  useLiveLessonStatus,
  useLivePathStatus,
  useMyPractice,
  useStage,
  useStageCheckmark,
  useStages,
} from '../api/learning.ts';
import { BookmarkButton, LessonCompletionToggle, PathCompletionToggle, ProgressBar } from './widgets.tsx';
import { Quiz } from './quiz.tsx';
import { UserText } from '#client/components/ui/user-text.tsx';

const Loading = () => (
  <div className="grid place-items-center py-16">
    <Spinner />
  </div>
);
const Failed = ({ what }: { what: string }) => (
  <p className="rounded-2xl border border-line bg-surface p-6 text-muted">
    We could not load {what}. It may not exist, or the connection dropped.
  </p>
);

function Upsell() {
  return (
    <div className="flex flex-col items-start gap-3 rounded-2xl border border-accent/40 bg-accent-soft p-6">
      <Lock aria-hidden className="size-6 text-accent-strong" />
      <p className="text-lg font-semibold">{LEARNING.membersOnly}</p>
      <a href={JOIN_URL} className={buttonClass('primary')}>
        See membership plans
      </a>
    </div>
  );
}

export function CourseList() {
  const courses = useCourses();
  if (courses.isPending) return <Loading />;
  if (courses.isError) return <Failed what="the courses" />;
  const signedIn = pageConfig().authId !== null;
  return (
    <ul className="grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
      {courses.data.map((c) => (
        <li key={c.id}>
          <a
            href={`/courses/${c.slug}`}
            className="group flex h-full flex-col overflow-hidden rounded-2xl border border-line bg-surface hover:border-accent"
          >
            <div className="relative aspect-video bg-surface-2">
              {c.image_url ? <img src={c.image_url} alt="" className="size-full object-cover" /> : null}
              {c.locked ? (
                <span className="absolute right-3 top-3 inline-flex items-center gap-1 rounded-full bg-black/70 px-3 py-1 text-sm font-semibold text-white">
                  <Lock aria-hidden className="size-4" /> Members
                </span>
              ) : c.is_welcome ? (
                <span className="absolute right-3 top-3 rounded-full bg-accent px-3 py-1 text-sm font-semibold text-accent-fg">
                  Start here
                </span>
              ) : null}
            </div>
            <div className="flex flex-1 flex-col gap-2 p-5">
              <h2 className="text-xl font-bold group-hover:text-accent-strong">{c.title}</h2>
              <p className="flex-1 text-muted">{c.description}</p>
              {signedIn ? (
                <ProgressBar percent={c.progress.percent} label={`${c.title} progress`} />
              ) : (
                <p className="text-sm text-muted">{c.progress.total} lessons</p>
              )}
            </div>
          </a>
        </li>
      ))}
    </ul>
  );
}

export function CourseView({ slug }: { slug: string }) {
  const course = useCourse(slug);
  useLiveLessonStatus();
  if (course.isPending) return <Loading />;
  if (course.isError) return <Failed what="this course" />;
  const c = course.data;
  const signedIn = pageConfig().authId !== null;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{c.title}</h1>
        <p className="max-w-2xl text-lg text-muted">{c.description}</p>
        {signedIn ? (
          <div className="max-w-md">
            <p className="mb-1 text-sm font-semibold text-muted">
              {c.progress.completed} of {c.progress.total} lessons complete
            </p>
            <ProgressBar percent={c.progress.percent} label="Course progress" />
          </div>
        ) : null}
      </div>
      {c.locked ? <Upsell /> : null}
      <ol className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface">
        {c.lessons.map((l, i) => (
          <li key={l.id} className="flex items-center gap-3 px-3 sm:px-5">
            {signedIn && !l.locked ? (
              <LessonCompletionToggle lessonId={l.id} complete={l.complete} look="icon" label={l.title} />
            ) : (
              <span className="grid size-11 shrink-0 place-items-center text-muted">
                {l.locked ? <Lock aria-hidden className="size-5" /> : <span className="tabular">{i + 1}</span>}
              </span>
            )}
            <a
              href={signedIn ? `/lessons/${l.id}` : `/login?to=${encodeURIComponent(`/lessons/${l.id}`)}`}
              className="flex min-h-16 flex-1 items-center gap-3 py-3"
            >
              <span className="flex-1">
                <span className={clsx('block font-semibold', l.complete && 'text-muted line-through decoration-1')}>
                  {l.title}
                </span>
                <span className="line-clamp-1 text-sm text-muted">{l.description}</span>
              </span>
              <ChevronRight aria-hidden className="size-5 text-muted" />
            </a>
          </li>
        ))}
      </ol>
    </div>
  );
}

export function LessonView({ id }: { id: number }) {
  const lesson = useLesson(id);
  useLivePathStatus(id);
  useLiveLessonStatus();
  if (lesson.isPending) return <Loading />;
  if (lesson.isError) return <Failed what="this lesson" />;
  const l = lesson.data;
  return (
    <div className="flex flex-col gap-6">
      <nav aria-label="Breadcrumb" className="text-sm text-muted">
        <a href="/courses" className="hover:underline">
          Courses
        </a>{' '}
        /{' '}
        <a href={`/courses/${l.course.slug}`} className="hover:underline">
          <UserText>{l.course.title}</UserText>
        </a>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{l.title}</h1>
        <BookmarkButton lessonId={l.id} bookmarked={l.bookmarked} />
      </div>
      {l.locked ? (
        <Upsell />
      ) : (
        <>
          {l.video_url ? <VideoEmbed src={l.video_url} title={`${l.title} video`} /> : null}
          <p className="max-w-3xl text-lg">{l.description}</p>
          {l.paths.length ? (
            <section aria-labelledby="paths" className="flex flex-col gap-3">
              <h2 id="paths" className="text-xl font-bold">
                Notation
              </h2>
              <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface">
                {l.paths.map((p) => (
                  <li key={p.id} className="flex items-center gap-3 px-3 sm:px-5">
                    <PathCompletionToggle lessonId={l.id} pathId={p.id} complete={p.complete} label={p.title} />
                    <Music aria-hidden className="size-5 text-accent" />
                    <a
                      href={p.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="min-h-14 flex-1 py-4 font-semibold hover:text-accent-strong"
                    >
                      {p.title}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {l.quiz ? <Quiz lessonId={l.id} questions={l.quiz.questions} /> : null}
          <div className="flex flex-wrap items-center gap-3 border-t border-line pt-6">
            <LessonCompletionToggle lessonId={l.id} complete={l.complete} />
            {l.next_lesson ? (
              <a href={`/lessons/${l.next_lesson.id}`} className={buttonClass('secondary')}>
                Next: <UserText>{l.next_lesson.title}</UserText> <ChevronRight aria-hidden className="size-5" />
              </a>
            ) : null}
          </div>
          {l.progress ? (
            <div className="max-w-md">
              <p className="mb-1 text-sm font-semibold text-muted">Course progress</p>
              <ProgressBar percent={l.progress.percent} label="Course progress" />
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

export function StageList() {
  const stages = useStages();
  if (stages.isPending) return <Loading />;
  if (stages.isError) return <Failed what="the stages" />;
  return (
    <ol className="grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
      {stages.data.map((s) => (
        <li key={s.id}>
          <a
            href={`/stages/${s.id}`}
            className={clsx(
              'flex h-full flex-col overflow-hidden rounded-2xl border bg-surface hover:border-accent',
              s.current ? 'border-accent ring-2 ring-accent/30' : 'border-line',
            )}
          >
            {s.image_url ? <img src={s.image_url} alt="" className="aspect-[16/10] w-full object-cover" /> : null}
            <div className="flex flex-1 flex-col gap-2 p-5">
              <p className="text-sm font-semibold uppercase tracking-wider text-muted">
                Stage {s.id}
                {s.current ? (
                  <span className="ml-2 rounded-full bg-accent px-2 py-0.5 text-xs text-accent-fg">You are here</span>
                ) : null}
              </p>
              <h2 className="text-xl font-bold">{s.title}</h2>
              <p className="flex-1 text-muted">{s.description}</p>
              <ProgressBar
                percent={s.steps_total ? Math.round((s.steps_done / s.steps_total) * 100) : 0}
                label={`Stage ${s.id} checklist`}
              />
            </div>
          </a>
        </li>
      ))}
    </ol>
  );
}

export function StageView({ id }: { id: number }) {
  const stage = useStage(id);
  const toggle = useStageCheckmark(id);
  if (stage.isPending) return <Loading />;
  if (stage.isError) return <Failed what="this stage" />;
  const s = stage.data;
  const done = s.steps.filter((x) => x.completed).length;
  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
      <div className="flex flex-col gap-5">
        <p className="text-sm font-semibold uppercase tracking-wider text-muted">Stage {s.id}</p>
        <h1 className="-mt-3 text-3xl font-extrabold tracking-tight sm:text-4xl">{s.title}</h1>
        <p className="text-lg text-muted">{s.description}</p>
        <section aria-labelledby="checklist" className="flex flex-col gap-3">
          <h2 id="checklist" className="text-xl font-bold">
            Checklist{' '}
            <span className="text-base font-semibold text-muted tabular">
              ({done}/{s.steps.length})
            </span>
          </h2>
          <ul className="flex flex-col gap-2">
            {s.steps.map((step) => (
              <li key={step.hash_id}>
                <label
                  className={clsx(
                    'flex min-h-14 cursor-pointer items-center gap-4 rounded-xl border px-4 py-3',
                    step.completed ? 'border-success/40 bg-success-soft' : 'border-line bg-surface hover:bg-surface-2',
                  )}
                >
                  <input
                    type="checkbox"
                    className="size-6 accent-[var(--accent)]"
                    checked={step.completed}
                    onChange={(e) => toggle.mutate({ hash_id: step.hash_id, completed: e.target.checked })}
                  />
                  <span className={clsx('text-base', step.completed && 'text-muted')}>{step.text}</span>
                </label>
              </li>
            ))}
          </ul>
        </section>
      </div>
      {s.image_url ? <img src={s.image_url} alt={`Stage ${s.id}: ${s.title}`} className="w-full rounded-2xl" /> : null}
    </div>
  );
}

/** Dashboard blocks: the lesson to continue with, and "My Practice" (saved lessons). */
export function ContinueCard() {
  const next = useContinueLesson();
  if (!next.data) return null;
  return (
    <a
      href={`/lessons/${next.data.id}`}
      className="flex items-center gap-4 rounded-2xl bg-accent p-5 text-accent-fg hover:bg-accent-strong"
    >
      <div className="flex-1">
        <p className="text-sm font-semibold uppercase tracking-wider">Continue · {next.data.course_title}</p>
        <p className="text-xl font-bold">{next.data.title}</p>
      </div>
      <ChevronRight aria-hidden className="size-7" />
    </a>
  );
}

export function MyPractice() {
  const list = useMyPractice();
  return (
    <section
      aria-labelledby="my-practice"
      className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-5"
    >
      <h2 id="my-practice" className="text-xl font-bold">
        My Practice
      </h2>
      {list.isPending ? (
        <Spinner />
      ) : !list.data?.length ? (
        <p className="text-muted">Lessons you save appear here. Tap “Save” on any lesson.</p>
      ) : (
        <ul className="flex flex-col">
          {list.data.map((b) => (
            <li key={b.id}>
              <a
                href={`/lessons/${b.id}`}
                className="flex min-h-12 items-center justify-between gap-3 rounded-lg px-2 hover:bg-surface-2"
              >
                <span>
                  <UserText className="font-semibold">{b.title}</UserText>{' '}
                  <span className="text-sm text-muted">
                    · <UserText>{b.course_title}</UserText>
                  </span>
                </span>
                <ChevronRight aria-hidden className="size-4 text-muted" />
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
