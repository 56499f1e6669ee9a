import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { expect, it, vi } from 'vitest';
import { PRACTICE_PLAN_LIMITS, PRACTICE_PLAN_MESSAGES, type PracticePlanAnswer } from '#shared/mentorship';
import { fakeNetwork, json } from '#test/fake-network';
import { PracticePlanView } from './practice-plan.tsx';
import { exercise as filledExercise } from '#test/practice-plans';

// A field the server refuses is marked and described the way every form's are
// (components/ui/form-feedback.ts); the plan saves as it is typed, so focus stays where it is.
const fetchMock = fakeNetwork();

const exercise = (id: string, title: string) => filledExercise({ id, title, link: '', notes: '' });
const answer: PracticePlanAnswer = {
  id: 3,
  student: { id: 9, name: 'Ann', slug: 'ann' },
  practice_plan: {
    phase1: [
      [
        {
          id: 'day-a',
          title: 'Monday',
          complete: false,
          exercises: [exercise('ex-a', 'Singles'), exercise('ex-b', 'Doubles')],
        },
      ],
    ],
    phase2: [],
    phase3: [],
  },
  admin_version: 1,
  student_version: 1,
  updated_at: '2026-01-01T00:00:00Z',
};

/** the plan loads, then its saves are answered in turn */
function open(admin: boolean, ...saves: Response[]) {
  fetchMock.mockImplementation(async (_url: string, init?: RequestInit) =>
    init?.method === 'POST' ? (saves.shift() ?? json(500, { message: 'x' })) : json(200, answer),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <PracticePlanView studentId={admin ? 9 : null} admin={admin} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const describedBy = (el: HTMLElement) => document.getElementById(el.getAttribute('aria-describedby') ?? '');
const refused = (errors: Record<string, string[]>) => json(422, { message: Object.values(errors)[0]![0], errors });

it('a student’s refused tempo is marked and described, the summary said politely, and focus stays where they type', async () => {
  const user = open(
    false,
    refused({ 'practice_plan.phase1.0.0.exercises.1.endingTempo1': [PRACTICE_PLAN_MESSAGES.digitsOnly] }),
    json(200, { ...answer, student_version: 2, merged: false }),
  );
  const typing = await screen.findByLabelText('Ending Tempo 2 for Singles');
  await user.type(typing, '96');
  const wrong = screen.getByLabelText('Ending Tempo 1 for Doubles');
  await vi.waitFor(() => expect(wrong).toHaveAttribute('aria-invalid', 'true'));
  expect(describedBy(wrong)).toHaveTextContent(PRACTICE_PLAN_MESSAGES.digitsOnly);
  const summary = screen.getByText('Please correct this field: Ending Tempo 1 for Doubles.');
  expect(summary).toHaveAttribute('role', 'status');
  expect(document.activeElement).toBe(typing);
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.getByLabelText('Ending Tempo 1 for Singles')).not.toHaveAttribute('aria-invalid');

  // the next save that goes through takes the mark away
  await user.type(typing, '1');
  await vi.waitFor(() => expect(wrong).not.toHaveAttribute('aria-invalid'));
  expect(screen.queryByText(/Please correct/)).toBeNull();
  expect(document.activeElement).toBe(typing);
});

it('a mentor’s too long exercise title is marked under it; editing it takes the mark away', async () => {
  const message = `The title may not be greater than ${PRACTICE_PLAN_LIMITS.title} characters.`;
  const user = open(true, refused({ 'practice_plan.phase1.0.0.exercises.0.title': [message] }));
  const notes = await screen.findByLabelText('Notes for Doubles');
  await user.type(notes, 'Slowly');
  const title = screen.getAllByLabelText('Exercise title')[0]!;
  await vi.waitFor(() => expect(title).toHaveAttribute('aria-invalid', 'true'));
  expect(describedBy(title)).toHaveTextContent(message);
  await screen.findByText('Please correct this field: Exercise title.');
  expect(document.activeElement).toBe(notes);
  await user.type(title, 'x');
  expect(title).not.toHaveAttribute('aria-invalid');
});
