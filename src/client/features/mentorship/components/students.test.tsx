import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { expect, it, vi } from 'vitest';
import { MENTORSHIP_AREA_TEXT, type MentorshipStudentDetail } from '#shared/mentorship';
import { fakeNetwork, json } from '#test/fake-network';
import { StudentOverviewPanel } from './students.tsx';

// Only the network (a third party to the component) is faked.
const fetchMock = fakeNetwork();

const detail: MentorshipStudentDetail = {
  student: {
    id: 12,
    name: 'Ana Ruiz',
    slug: 'ana-ruiz',
    email: 'ana@example.test',
    avatarUrl: '',
    profileUrl: '/profile/ana-ruiz',
    joinedAt: '2026-01-04T10:00:00.000Z',
  },
  mentor: null,
  status: 'active',
  option: null,
  payment: { kind: 'paid_in_full', option: 'One payment' },
  pastDue: false,
  plan: { daysComplete: 0, daysTotal: 0, currentWeek: null },
  lessons: { complete: 0, total: 0 },
  videos: { total: 0, awaitingFeedback: 0 },
  recentVideos: [],
  links: [],
  lastActivity: null,
};

it('a mentor the server refuses: the select is marked with the message, the summary is said, focus stays on it', async () => {
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    if (init?.method === 'POST')
      return json(422, { message: 'x', errors: { mentor_id: [MENTORSHIP_AREA_TEXT.mentorMustBeAdmin] } });
    if (String(url).includes('/api/mentorship/mentors'))
      return json(200, { mentors: [{ id: 3, name: 'Jo Beat', avatarUrl: '', isMentor: true }] });
    return json(200, detail);
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <StudentOverviewPanel id={12} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  const select = await screen.findByRole('combobox', { name: 'Assigned mentor' });
  await screen.findByRole('option', { name: 'Jo Beat' });
  await user.selectOptions(select, 'Jo Beat');
  const form = select.closest('form')!;
  expect(await within(form).findByRole('alert')).toHaveTextContent('Please correct this field: Assigned mentor.');
  expect(select).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(select.getAttribute('aria-describedby')!)).toHaveTextContent(
    MENTORSHIP_AREA_TEXT.mentorMustBeAdmin,
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(select));
});
