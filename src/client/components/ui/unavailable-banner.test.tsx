import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { ApiError, get } from '#client/lib/api.ts';
import { ErrorPage } from '#client/app/pages/error.tsx';
import { UnavailableBanner } from './unavailable-banner.tsx';

const SENTENCE = 'Backbeat is briefly unavailable. Please try again in a moment.';

/** the network answers each call with the next of these */
function answers(...replies: Array<[number, unknown]>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      const [status, body] = replies.shift()!;
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json', ...(status === 503 ? { 'retry-after': '5' } : {}) },
      });
    }),
  );
}
afterEach(() => vi.unstubAllGlobals());

it('a call answered 503 says "briefly unavailable" under the header, not "signed out"; the next answer clears it', async () => {
  render(<UnavailableBanner />);
  const region = screen.getByRole('status');
  expect(region).toBeEmptyDOMElement();

  answers([503, { message: SENTENCE }], [200, { user: { id: 7 } }]);
  const failed = await get('/api/me').catch((err: unknown) => err);
  expect(failed).toBeInstanceOf(ApiError);
  expect((failed as ApiError).status).toBe(503);
  await waitFor(() => expect(region).toHaveTextContent(SENTENCE));
  expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  expect(screen.queryByText(/sign in/i)).toBeNull();

  expect(await get('/api/me')).toEqual({ user: { id: 7 } });
  await waitFor(() => expect(region).toBeEmptyDOMElement());
});

it('a refused call of another kind (a 401, a 404) does not raise it', async () => {
  render(<UnavailableBanner />);
  answers(
    [401, { message: 'Please sign in to continue.' }],
    [404, { message: 'We could not find what you were looking for.' }],
  );
  await get('/api/me').catch(() => undefined);
  await get('/api/x').catch(() => undefined);
  expect(screen.getByRole('status')).toBeEmptyDOMElement();
});

it('a page answered 503 is titled "Briefly unavailable" and offers to try again', () => {
  render(<ErrorPage status={503} message={SENTENCE} />);
  expect(screen.getByRole('heading', { name: 'Briefly unavailable' })).toBeInTheDocument();
  expect(screen.getByText(SENTENCE)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
});
