import { expect, it } from 'vitest';
import { accessFor, matchPattern } from './pages.ts';

it('matches patterns with params', () => {
  expect(matchPattern('/notifications/:id', '/notifications/12')).toEqual({ id: '12' });
  expect(matchPattern('/notifications/:id', '/notifications')).toBeNull();
  expect(matchPattern('/', '/')).toEqual({});
});

it('knows who may open a page', () => {
  expect(accessFor('/dashboard')).toBe('member');
  expect(accessFor('/mentorship')).toBe('mentorship');
  expect(accessFor('/mentorship/notifications/4')).toBe('member');
  expect(accessFor('/login')).toBe('guest');
  expect(accessFor('/nope')).toBeNull();
});
