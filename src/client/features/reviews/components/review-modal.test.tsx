import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { LEARNING } from '#shared/learning';
import { openModal } from '#client/components/ui/modal.tsx';
import { REVIEW_MODAL, ReviewModal } from './review-modal.tsx';
import { fakeNetwork } from '#test/fake-network';

const fetchMock = fakeNetwork();

it('without a validation message, says the fallback', async () => {
  fetchMock.mockResolvedValueOnce(new Response('oops', { status: 500 }));
  render(<ReviewModal />);
  act(() => openModal(REVIEW_MODAL));
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Your review'), 'Great');
  await user.click(screen.getByRole('button', { name: 'Send review' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(LEARNING.reviewFallback);
  expect(JSON.parse(fetchMock.mock.calls[0]![1].body)).toEqual({ subject: '', body: 'Great', studentReview: '1' });
});

it('marks the review the server refuses, announces it and moves focus there', async () => {
  fetchMock.mockResolvedValueOnce(
    new Response(JSON.stringify({ message: 'x', errors: { body: ['Please write your review.'] } }), {
      status: 422,
      headers: { 'content-type': 'application/json' },
    }),
  );
  render(<ReviewModal />);
  act(() => openModal(REVIEW_MODAL));
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Send review' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Your review.');
  const review = screen.getByLabelText('Your review');
  expect(review).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(review.getAttribute('aria-describedby')!)).toHaveTextContent(
    'Please write your review.',
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(review));
  await user.type(review, 'Great');
  expect(review).not.toHaveAttribute('aria-invalid');
});
