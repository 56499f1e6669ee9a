import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { expect, it, vi } from 'vitest';
import { CAPTION_MESSAGES, type VideoSubmission } from '#shared/upload';
import { VideoDetail } from './video-detail.tsx';
import { fakeNetwork, json } from '#test/fake-network';

// Only the network (a third party to the component) is faked.
const fetchMock = fakeNetwork();

const video: VideoSubmission = {
  id: 8,
  student: { id: 2, name: 'Sam Student' },
  title: 'Paradiddles at 90 bpm',
  note: '',
  mime_type: 'video/mp4',
  size: 4000,
  created_at: '2026-11-20T10:00:00.000Z',
  file_url: '/mentorship/videos/8/file',
  url: '/mentorship/videos/8',
  feedback: null,
  feedback_at: null,
  feedback_by: null,
  status: 'awaiting',
  captions: null,
};

async function renderVideo(postAnswer: () => Response) {
  fetchMock.mockImplementation(async (_url: string, init?: RequestInit) =>
    init?.method === 'POST' ? postAnswer() : json(200, { data: video }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <VideoDetail id={8} admin backTo="/mentorship/videos" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await screen.findByRole('heading', { name: video.title });
  return userEvent.setup();
}

it('feedback the server refuses is marked under the field, announced, and the field takes focus', async () => {
  const user = await renderVideo(() => json(422, { message: 'x', errors: { feedback: ['Please keep it shorter.'] } }));
  const form = screen.getByRole('form', { name: 'Feedback' });
  const box = within(form).getByLabelText('Your feedback');
  await user.type(box, 'Lovely and even.');
  await user.click(within(form).getByRole('button', { name: 'Send feedback' }));
  expect(await within(form).findByRole('alert')).toHaveTextContent('Please correct this field: Your feedback.');
  expect(box).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(box.getAttribute('aria-describedby')!)).toHaveTextContent('Please keep it shorter.');
  await vi.waitFor(() => expect(document.activeElement).toBe(box));
});

it('captions without a file: the file field is marked, announced and focused; nothing is sent', async () => {
  const user = await renderVideo(() => json(200, {}));
  const form = screen.getByRole('form', { name: 'Captions' });
  await user.click(within(form).getByRole('button', { name: 'Attach captions' }));
  expect(await within(form).findByRole('alert')).toHaveTextContent(
    'Please correct this field: Caption file (.vtt, up to 500 KB).',
  );
  const file = within(form).getByLabelText(/Caption file/);
  expect(file).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(file.getAttribute('aria-describedby')!)).toHaveTextContent(CAPTION_MESSAGES.required);
  await vi.waitFor(() => expect(document.activeElement).toBe(file));
  expect(fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toBe(false);
});
