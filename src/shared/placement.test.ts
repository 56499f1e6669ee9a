import { expect, it } from 'vitest';
import { PLACEMENT_QUESTIONS, placementScore } from './placement.ts';
import { LEARNING, stageFromScore } from './learning.ts';

it('has exactly 10 questions, each with options carrying points', () => {
  expect(PLACEMENT_QUESTIONS).toHaveLength(LEARNING.placementQuestions);
  for (const q of PLACEMENT_QUESTIONS) expect(q.options.length).toBeGreaterThanOrEqual(2);
});

it('scores the sum of the chosen points, and every stage is reachable', () => {
  expect(placementScore(PLACEMENT_QUESTIONS, Array(10).fill(0))).toBe(0);
  const max = placementScore(
    PLACEMENT_QUESTIONS,
    PLACEMENT_QUESTIONS.map((q) => q.options.length - 1),
  );
  expect(max).toBe(40);
  expect(stageFromScore(max)).toBe(5);
  expect(placementScore(PLACEMENT_QUESTIONS, [1, 1, 1, 1, 1])).toBe(1 + 1 + 1 + 1 + 1);
});
