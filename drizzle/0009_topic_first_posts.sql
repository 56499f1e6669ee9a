-- Topics written before first_post_id existed: their oldest top-level post holds the body, and
-- replies that were filed under it become top-level posts (the thread below a topic's body), and
-- replies to those go under them.
UPDATE "forum_topics" t SET "first_post_id" = (
  SELECT min(p."id") FROM "posts" p WHERE p."type" = 'forumtopic' AND p."resource_id" = t."id" AND p."parent_id" IS NULL
) WHERE t."first_post_id" IS NULL;--> statement-breakpoint
-- a reply to a direct reply of the body goes under that reply (the thread keeps its conversation)
UPDATE "posts" p SET "parent_id" = r."id"
FROM "forum_topics" t, "posts" r
WHERE p."type" = 'forumtopic' AND p."resource_id" = t."id" AND p."parent_id" = t."first_post_id"
  AND r."id" = p."replying_to_id" AND r."id" <> t."first_post_id" AND r."parent_id" = t."first_post_id"
  AND (r."replying_to_id" IS NULL OR r."replying_to_id" = t."first_post_id");--> statement-breakpoint
UPDATE "posts" p SET "parent_id" = NULL
FROM "forum_topics" t
WHERE p."type" = 'forumtopic' AND p."resource_id" = t."id" AND p."parent_id" = t."first_post_id";--> statement-breakpoint
UPDATE "posts" p SET "replying_to_id" = NULL
FROM "forum_topics" t
WHERE p."type" = 'forumtopic' AND p."resource_id" = t."id" AND p."replying_to_id" = t."first_post_id";--> statement-breakpoint
UPDATE "forum_topics" t SET "comments_count" = (
  SELECT count(*) FROM "posts" p WHERE p."type" = 'forumtopic' AND p."resource_id" = t."id" AND p."trashed_at" IS NULL AND p."id" <> t."first_post_id"
) WHERE t."first_post_id" IS NOT NULL;
