import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { setPageConfig } from '#client/lib/page-config.ts';
import { RewardListener } from './rewards.tsx';

// the member's private channel, as the server sends on it (the connection itself is faked)
const handlers = new Map<string, (payload: unknown) => void>();
vi.mock('#client/lib/socket.ts', () => ({
  useChannelEvent: (_channel: string | null, event: string, handler: (payload: unknown) => void) =>
    handlers.set(event, handler),
}));
afterEach(() => setPageConfig(null));

const unlocked = (name: string) => ({ imageUrl: `/images/achievements/${name}.svg`, progress: { details: { name } } });

it('names each achievement an action unlocked, in the order announced: none replaces another', async () => {
  setPageConfig({ authId: 5 });
  render(<RewardListener />);
  act(() => {
    handlers.get('UnlockedAchievement')!(unlocked('Quiz Whiz'));
    handlers.get('UnlockedAchievement')!(unlocked('First Steps'));
  });
  expect(await screen.findByRole('dialog', { name: 'Achievement unlocked!' })).toHaveTextContent('Quiz Whiz');
  await userEvent.setup().click(screen.getByRole('button', { name: 'Keep practising' }));
  expect(await screen.findByRole('dialog', { name: 'Achievement unlocked!' })).toHaveTextContent('First Steps');
});
