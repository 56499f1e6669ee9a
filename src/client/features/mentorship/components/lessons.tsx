import { ChevronLeft, ChevronRight } from 'lucide-react';
import clsx from 'clsx';
import { buttonClass } from '#client/components/ui/button.tsx';
import { CompletionToggle, type CompletionLook } from '#client/components/ui/completion-toggle.tsx';
import { VideoEmbed } from '#client/components/ui/video-embed.tsx';
import { useMentorshipCourses, useMentorshipLesson, useMentorshipLessonCompletion } from '../api/mentorship.ts';
import { Failed, Loading, percentOf, ProgressBar } from './widgets.tsx';

/** /mentorship/lessons: the mentorship courses, each with its lessons and the viewer's progress. */
export function MentorshipCourseList() {
  const courses = useMentorshipCourses();
  if (courses.isPending) return <Loading />;
  if (courses.isError) return <Failed what="the lessons" />;
  if (!courses.data.length)
    return (
      <p className="rounded-2xl border border-dashed border-line bg-surface p-6 text-muted">
        No mentorship lessons yet. Your mentor will add them here.
      </p>
    );
  return (
    <div className="flex flex-col gap-8">
      {courses.data.map((c) => (
        <section key={c.id} aria-labelledby={`course-${c.id}`} className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <h2 id={`course-${c.id}`} className="text-2xl font-bold">
              {c.title}
            </h2>
            {c.description ? <p className="max-w-2xl text-muted">{c.description}</p> : null}
            <div className="max-w-md">
              <p className="mb-1 text-sm font-semibold text-muted">
                {c.progress.complete} of {c.progress.total} lessons complete
              </p>
              <ProgressBar percent={percentOf(c.progress.complete, c.progress.total)} label={`${c.title} progress`} />
            </div>
          </div>
          <ol className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface">
            {c.lessons.map((l, i) => (
              <li key={l.id} className="flex items-center gap-3 px-3 sm:px-5">
                <LessonToggle lessonId={l.id} complete={l.complete} look="icon" label={l.title} />
                <a href={`/mentorship/lessons/${l.id}`} className="flex min-h-16 flex-1 items-center gap-3 py-3">
                  <span className="w-6 shrink-0 text-sm font-semibold text-muted tabular">{i + 1}</span>
                  <span className="min-w-0 flex-1">
                    <span className={clsx('block font-semibold', l.complete && 'text-muted line-through decoration-1')}>
                      {l.title}
                    </span>
                    <span className="line-clamp-1 text-sm text-muted">{l.description}</span>
                  </span>
                  <ChevronRight aria-hidden className="size-5 shrink-0 text-muted" />
                </a>
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}

/** /mentorship/lessons/{id}: video, description, the complete toggle, previous and next. No quiz here. */
export function MentorshipLessonView({ id }: { id: number }) {
  const lesson = useMentorshipLesson(id);
  if (lesson.isPending) return <Loading />;
  if (lesson.isError) return <Failed what="this lesson" />;
  const l = lesson.data;
  return (
    <div className="flex flex-col gap-6">
      <nav aria-label="Breadcrumb" className="text-sm text-muted">
        <a href="/mentorship/lessons" className="hover:underline">
          Lessons
        </a>{' '}
        / {l.course.title} / Lesson {l.number} of {l.count}
      </nav>
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{l.title}</h1>
      {l.video_url ? <VideoEmbed src={l.video_url} title={`${l.title} video`} /> : null}
      {l.description ? <p className="max-w-3xl text-lg">{l.description}</p> : null}
      <div className="flex flex-wrap items-center gap-3 border-t border-line pt-6">
        <LessonToggle lessonId={l.id} complete={l.complete} />
      </div>
      <nav aria-label="Lessons" className="grid gap-3 sm:grid-cols-2">
        {l.previous ? (
          <a
            href={`/mentorship/lessons/${l.previous.id}`}
            className="flex min-h-16 items-center gap-3 rounded-2xl border border-line bg-surface p-4 hover:border-accent"
          >
            <ChevronLeft aria-hidden className="size-5 shrink-0 text-muted" />
            <span className="min-w-0">
              <span className="block text-sm text-muted">Previous</span>
              <span className="block truncate font-semibold" title={l.previous.title}>
                {l.previous.title}
              </span>
            </span>
          </a>
        ) : (
          <span className="hidden sm:block" />
        )}
        {l.next ? (
          <a
            href={`/mentorship/lessons/${l.next.id}`}
            className="flex min-h-16 items-center justify-end gap-3 rounded-2xl border border-line bg-surface p-4 text-right hover:border-accent"
          >
            <span className="min-w-0">
              <span className="block text-sm text-muted">Next</span>
              <span className="block truncate font-semibold" title={l.next.title}>
                {l.next.title}
              </span>
            </span>
            <ChevronRight aria-hidden className="size-5 shrink-0 text-muted" />
          </a>
        ) : (
          <a href="/mentorship/lessons" className={clsx(buttonClass('secondary'), 'min-h-16 rounded-2xl')}>
            Back to all lessons
          </a>
        )}
      </nav>
    </div>
  );
}

/** The completion toggle of a mentorship lesson (POST /mentorship/lesson-completions), optimistic. */
function LessonToggle({
  lessonId,
  complete,
  look = 'button',
  label = 'lesson',
}: {
  lessonId: number;
  complete: boolean;
  look?: CompletionLook;
  label?: string;
}) {
  const mutation = useMentorshipLessonCompletion(lessonId);
  return <CompletionToggle complete={complete} look={look} label={label} onToggle={() => mutation.mutate(!complete)} />;
}
