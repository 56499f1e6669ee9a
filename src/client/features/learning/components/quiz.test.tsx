import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { fakeNetwork } from '#test/fake-network';
import { Quiz } from './quiz.tsx';

// The server judges the answers (a third party to the component): its answer is faked.
const fetchMock = fakeNetwork();

const questions = [{ title: 'Where is the backbeat?', imageUrl: null, options: ['Beats 1 and 3', 'Beats 2 and 4'] }];

it('the last answer and "Try again" each replace the control that had focus: focus goes to the quiz heading', async () => {
  fetchMock.mockResolvedValue(
    new Response(
      JSON.stringify({
        score: 100,
        passed: true,
        correct: 1,
        total: 1,
        answers: [true],
        next_lesson_url: '/lessons/2',
      }),
      {
        status: 200,
        headers: { 'content-type': 'application/json' },
      },
    ),
  );
  render(<Quiz lessonId={1} questions={questions} />);
  const user = userEvent.setup();
  const heading = screen.getByRole('heading', { name: 'Lesson quiz' });
  expect(document.activeElement).not.toBe(heading);
  await user.click(screen.getByRole('button', { name: 'Beats 2 and 4' }));
  expect(document.activeElement).toBe(heading);
  const again = await screen.findByRole('button', { name: 'Try again' });
  await user.click(again);
  expect(document.activeElement).not.toBe(again);
  await screen.findByRole('button', { name: 'Beats 2 and 4' });
  expect(document.activeElement).toBe(heading);
});

it('the result says which answers were wrong, in the list and in what is announced', async () => {
  const three = [questions[0]!, questions[0]!, questions[0]!];
  fetchMock.mockResolvedValue(
    new Response(
      JSON.stringify({
        score: 33,
        passed: false,
        correct: 1,
        total: 3,
        answers: [false, true, false],
        next_lesson_url: '/lessons/2',
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    ),
  );
  render(<Quiz lessonId={1} questions={three} />);
  const user = userEvent.setup();
  for (let i = 0; i < 3; i++) await user.click(screen.getByRole('button', { name: 'Beats 2 and 4' }));
  const list = await screen.findByRole('list', { name: 'Your answers' });
  expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
    'Question 1: wrong',
    'Question 2: right',
    'Question 3: wrong',
  ]);
  expect(screen.getByTestId('quiz-announcement').textContent).toBe(
    'Quiz result: 1 of 3 right (33%). Questions 1 and 3 were wrong. Not passed: 70% passes.',
  );
});
