import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { expect, it, vi } from 'vitest';
import { emptySong, SONG } from '#shared/songmapper';
import { fakeNetwork, json } from '#test/fake-network';
import { SongEditor } from './song-editor.tsx';

// A field the server refuses is marked and described the way every form's are
// (components/ui/form-feedback.ts); the song saves as the member types, so focus stays where it is.
const fetchMock = fakeNetwork();

/** the song's saves are answered in turn; the templates menu's list is empty */
function answerSaves(...answers: Response[]) {
  fetchMock.mockImplementation(async (url: string) =>
    url === '/songmapper' ? (answers.shift() ?? json(500, { message: 'x' })) : json(200, { templates: [] }),
  );
}

function open() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <SongEditor id={null} initial={emptySong()} base="/songmapper" onCreated={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const describedBy = (el: HTMLElement) => document.getElementById(el.getAttribute('aria-describedby') ?? '');

it('marks the refused title and the refused section’s measures, says which politely and leaves focus in the field being typed in', async () => {
  const user = open();
  const tooLong = `The title may not be greater than ${SONG.titleMax} characters.`;
  const measuresMessage = 'The measures may only contain digits.';
  const saved = json(200, { id: 'AAAAAAAAAAAAAAAAAAAAAA' });
  answerSaves(
    json(422, {
      message: tooLong,
      errors: { 'song.title': [tooLong], 'song.sections.0.measures': [measuresMessage] },
    }),
    saved,
  );
  const bpm = screen.getByLabelText('BPM');
  await user.type(bpm, '96');
  const summary = await screen.findByText(
    'Please correct these 2 fields: Song title, Measures.',
    {},
    { timeout: 4000 },
  );
  expect(summary).toHaveAttribute('role', 'status');
  const title = screen.getByLabelText('Song title');
  expect(title).toHaveAttribute('aria-invalid', 'true');
  expect(describedBy(title)).toHaveTextContent(tooLong);
  const measures = screen.getByLabelText('Measures');
  expect(measures).toHaveAttribute('aria-invalid', 'true');
  expect(describedBy(measures)).toHaveTextContent(measuresMessage);
  // the autosave's own line keeps its words
  expect(screen.getByTestId('save-status')).toHaveTextContent(tooLong);
  expect(document.activeElement).toBe(bpm);
  expect(screen.queryByRole('alert')).toBeNull();

  // editing the title takes its mark away; the next save that goes through clears the rest
  await user.type(title, 'Back in Black');
  expect(title).not.toHaveAttribute('aria-invalid');
  expect(measures).toHaveAttribute('aria-invalid', 'true');
  await vi.waitFor(() => expect(measures).not.toHaveAttribute('aria-invalid'), { timeout: 4000 });
  expect(screen.queryByText(/Please correct/)).toBeNull();
  expect(document.activeElement).toBe(title);
});
