import { z } from './zod.ts';

/** One achievement as the rewards page shows it (docs/product/rewards.md). */
export const achievementSchema = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  image_url: z.string(),
  threshold: z.number(),
  /** towards the threshold, capped at it */
  progress: z.number(),
  unlocked_at: z.string().nullable(),
});
export type Achievement = z.infer<typeof achievementSchema>;

/** GET /api/achievements: the member's points and every achievement with their progress */
export const achievementsResponseSchema = z.object({ points: z.number(), data: z.array(achievementSchema) });
export type AchievementsResponse = z.infer<typeof achievementsResponseSchema>;
