import { withContext } from '#server/lib/context';
import { category, categoryPage, createCategory, deleteCategory, moveCategory, updateCategory } from './categories.ts';
import type { AdminCommunityContext } from './context.ts';
import {
  createShow,
  deleteShow,
  setShowChat,
  setShowStatus,
  setShowTopic,
  show,
  showPage,
  updateShow,
} from './live-shows.ts';
import { memberCommunity } from './member-community.ts';
import { moderationItem } from './moderation-kinds.ts';
import { moderate, moderationPage } from './moderation.ts';

/**
 * The console's community pages: moderation of posts, topics, chat messages and wall
 * comments (moderation.ts, moderation-kinds.ts); a member's community history
 * (member-community.ts); forum categories (categories.ts); live shows (live-shows.ts). Every
 * change is written with its audit entry in one transaction; live viewers hear about it through
 * the live service's channel events.
 */
export function createAdminCommunityService(deps: AdminCommunityContext) {
  const on = withContext(deps);
  return {
    moderation: on(moderationPage),
    act: on(moderate),
    item: on(moderationItem),
    memberCommunity: on(memberCommunity),

    categories: on(categoryPage),
    category: on(category),
    createCategory: on(createCategory),
    updateCategory: on(updateCategory),
    moveCategory: on(moveCategory),
    deleteCategory: on(deleteCategory),

    liveShows: on(showPage),
    show: on(show),
    createShow: on(createShow),
    updateShow: on(updateShow),
    setShowStatus: on(setShowStatus),
    setShowChat: on(setShowChat),
    setShowTopic: on(setShowTopic),
    deleteShow: on(deleteShow),
  };
}
export type AdminCommunityService = ReturnType<typeof createAdminCommunityService>;
