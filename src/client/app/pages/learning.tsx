import { useEffect, useRef } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { CheckCircle2 } from 'lucide-react';
import { TIMER_WORDS } from '#shared/learning';
import {
  CourseList,
  CourseView,
  LessonView,
  StageList,
  StageView,
} from '#client/features/learning/components/views.tsx';
import { JournalForm } from '#client/features/journal/components/journal-form.tsx';
import { JournalHistory, PracticeSummary } from '#client/features/journal/components/journal-history.tsx';
import { PracticeTimer } from '#client/features/journal/components/practice-timer.tsx';
import { Questionnaire } from '#client/features/placement/components/questionnaire.tsx';
import { AchievementsView } from '#client/features/achievements/components/rewards.tsx';
import { useLesson } from '#client/features/learning/api/learning.ts';
import { LessonDiscussion } from '#client/features/discussion/components/lesson-discussion.tsx';
import { pageConfig } from '#client/lib/page-config.ts';
import { Card, PageTitle } from './common.tsx';

export const CoursesPage = () => (
  <>
    <PageTitle title="Courses" subtitle="Step-by-step courses from your first groove to playing for the song." />
    <CourseList />
  </>
);

export function CoursePage() {
  const { slug = '' } = useParams();
  return <CourseView slug={slug} />;
}

export function LessonPage() {
  const { id = '' } = useParams();
  const lessonId = Number(id);
  // the same query LessonView runs: the discussion follows the lesson's own visibility
  const lesson = useLesson(lessonId);
  return (
    <>
      <LessonView id={lessonId} />
      {lesson.data && !lesson.data.locked && pageConfig().authId !== null ? (
        <div className="mt-10 border-t border-line pt-8">
          <LessonDiscussion lessonId={lessonId} />
        </div>
      ) : null}
    </>
  );
}

export const StagesPage = () => (
  <>
    <PageTitle title="Learning Path" subtitle="Five stages with a checklist each. Tick a step when you can play it." />
    <StageList />
  </>
);

export function StagePage() {
  const { id = '' } = useParams();
  return <StageView id={Number(id)} />;
}

/** After the timer logged its minutes the journal opens with focus on what was logged, so it is read first. */
function LoggedMessage({ minutes }: { minutes: number }) {
  const message = useRef<HTMLParagraphElement>(null);
  useEffect(() => message.current?.focus({ preventScroll: true }), []);
  return (
    <p
      ref={message}
      tabIndex={-1}
      role="status"
      className="mb-6 flex items-center gap-2 rounded-xl bg-success-soft px-4 py-3 font-semibold text-success"
    >
      <CheckCircle2 aria-hidden className="size-5" /> {TIMER_WORDS.logged(minutes)}
    </p>
  );
}

export function JournalPage() {
  const [params] = useSearchParams();
  const logged = Number(params.get('logged')) || 0;
  return (
    <>
      <PageTitle title="Practice Journal" subtitle="Time your session, then write down what you played and how fast." />
      {logged > 0 ? <LoggedMessage minutes={logged} /> : null}
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <div className="flex flex-col gap-6">
          <Card>
            <h2 className="mb-4 text-xl font-bold">Today’s exercises</h2>
            <JournalForm />
          </Card>
          <section aria-labelledby="history" className="flex flex-col gap-4">
            <h2 id="history" className="text-xl font-bold">
              History
            </h2>
            <JournalHistory />
          </section>
        </div>
        <div className="order-first flex flex-col gap-6 lg:order-none">
          <PracticeTimer />
          <PracticeSummary />
        </div>
      </div>
    </>
  );
}

export const PlacementPage = () => (
  <>
    <PageTitle
      title="Find your stage"
      subtitle="Ten quick questions about your playing. We will place you on the learning path."
    />
    <Questionnaire />
  </>
);

export const AchievementsPage = () => (
  <>
    <PageTitle
      title="Achievements"
      subtitle="Points for every lesson, quiz and practice session. Badges for the milestones."
    />
    <AchievementsView />
  </>
);
