import { useEffect, useRef, useState } from 'react';
import clsx from 'clsx';
import { Check, X } from 'lucide-react';
import { isImageOption, QUIZ, quizProgress, type QuizResult as Result } from '#shared/learning';
import { post } from '#client/lib/api.ts';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ChoiceButtons, StepProgress } from '#client/components/ui/steps.tsx';

const QUIZ_CHECK_FAILED = 'We could not check your answers. Please try again.';

/** "Question 2 was wrong. " / "Questions 1 and 3 were wrong. ", or nothing when all were right */
function wrongOnes(answers: boolean[]): string {
  const wrong = answers.flatMap((right, i) => (right ? [] : [i + 1]));
  if (wrong.length === 0) return '';
  if (wrong.length === 1) return `Question ${wrong[0]} was wrong. `;
  return `Questions ${wrong.slice(0, -1).join(', ')} and ${wrong.at(-1)} were wrong. `;
}

interface Question {
  title: string;
  imageUrl: string | null;
  options: string[];
}
/**
 * Lesson quiz (docs/product/learning.md): one question at a time, a progress bar from 10 percent, then the result:
 * "Completed" under 70, "Congratulations!" from 70, and a continue button above 70. The server
 * decides what was correct. Not sent for mentorship lessons.
 */
export function Quiz({
  lessonId,
  questions,
  mentorship = false,
}: {
  lessonId: number;
  questions: Question[];
  mentorship?: boolean;
}) {
  const [answers, setAnswers] = useState<number[]>([]);
  const [result, setResult] = useState<Result | null>(null);
  const [failed, setFailed] = useState(false);
  const done = answers.length === questions.length;
  // the last answer replaces the questions with the result, and "Try again" the result with the
  // questions: the control that had focus leaves the page, so focus goes to the quiz's top
  // (docs/product/accessibility.md). An achievement the answer unlocks then gives focus back there.
  const heading = useRef<HTMLHeadingElement>(null);
  const wasDone = useRef(done);
  useEffect(() => {
    if (wasDone.current !== done) heading.current?.focus();
    wasDone.current = done;
  }, [done]);

  async function choose(option: number) {
    const next = [...answers, option];
    setAnswers(next);
    if (next.length < questions.length || mentorship) return;
    try {
      setResult(await post<Result>('/lessons/quiz', { id: lessonId, score: 0, answers: next }));
    } catch {
      setFailed(true);
    }
  }

  const percent = quizProgress(answers.length, questions.length);
  const message = result ? (result.score >= QUIZ.passScore ? QUIZ.passed : QUIZ.completed) : null;
  // what a screen reader hears after each answer (the region is always there, so changes are spoken):
  // the server judges the answers together, so each one is acknowledged and the last brings the verdict,
  // naming the questions answered wrong as the result's list shows them
  const said = result
    ? `Quiz result: ${result.correct} of ${result.total} right (${result.score}%). ${wrongOnes(result.answers)}${result.score >= QUIZ.passScore ? 'Passed.' : `Not passed: ${QUIZ.passScore}% passes.`}`
    : failed
      ? QUIZ_CHECK_FAILED
      : done
        ? 'Checking your answers.'
        : answers.length > 0
          ? `Answer ${answers.length} recorded. Question ${answers.length + 1} of ${questions.length}.`
          : '';
  return (
    <section
      aria-labelledby="quiz"
      className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-5 sm:p-6"
    >
      <h2 id="quiz" ref={heading} tabIndex={-1} className="text-xl font-bold">
        Lesson quiz
      </h2>
      <StepProgress name="Quiz progress" percent={percent} />
      <p role="status" className="sr-only" data-testid="quiz-announcement">
        {said}
      </p>
      {!done ? (
        <QuestionView
          question={questions[answers.length]!}
          number={answers.length + 1}
          total={questions.length}
          onChoose={(i) => void choose(i)}
        />
      ) : result ? (
        <div className="flex flex-col items-start gap-3">
          <p className={clsx('text-2xl font-extrabold', result.passed ? 'text-success' : '')}>{message}</p>
          <p className="text-muted">
            You answered {result.correct} of {result.total} correctly ({result.score}%).
          </p>
          <ol aria-label="Your answers" className="flex flex-col gap-1">
            {result.answers.map((right, i) => (
              <li key={i} className="flex items-center gap-2">
                {right ? (
                  <Check aria-hidden className="size-5 shrink-0 text-success" />
                ) : (
                  <X aria-hidden className="size-5 shrink-0 text-danger" />
                )}
                <span>
                  Question {i + 1}: {right ? 'right' : 'wrong'}
                </span>
              </li>
            ))}
          </ol>
          <div className="flex flex-wrap gap-3">
            {result.score > QUIZ.passScore ? (
              <a href={result.next_lesson_url} className={buttonClass('primary')}>
                Continue
              </a>
            ) : null}
            <button
              type="button"
              className={buttonClass('secondary')}
              onClick={() => (setAnswers([]), setResult(null))}
            >
              Try again
            </button>
          </div>
        </div>
      ) : failed ? (
        <p className="text-muted">{QUIZ_CHECK_FAILED}</p>
      ) : (
        <Spinner label="Checking your answers" />
      )}
    </section>
  );
}

function QuestionView({
  question,
  number,
  total,
  onChoose,
}: {
  question: Question;
  number: number;
  total: number;
  onChoose: (i: number) => void;
}) {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm font-semibold text-muted">
        Question {number} of {total}
      </p>
      <p className="text-lg font-semibold">{question.title}</p>
      {question.imageUrl ? <img src={question.imageUrl} alt="" className="max-h-64 self-start rounded-xl" /> : null}
      <ChoiceButtons
        options={question.options}
        columns={question.options.some(isImageOption) ? 3 : 1}
        onChoose={onChoose}
        render={(o, i) =>
          isImageOption(o) ? (
            <img src={o} alt={`Option ${i + 1}`} className="mx-auto max-h-24" />
          ) : (
            <span className="w-full">{o}</span>
          )
        }
      />
    </div>
  );
}
