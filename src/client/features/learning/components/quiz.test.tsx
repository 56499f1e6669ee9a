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
    new Response(JSON.stringify({ score: 100, passed: true, correct: 1, total: 1, next_lesson_url: '/lessons/2' }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    }),
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
