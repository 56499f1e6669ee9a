ALTER TABLE "forum_categories" ADD COLUMN "topics_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "forum_categories" ADD COLUMN "visible_topics_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A category's topic counts follow every change to forum_topics, whoever makes it (the app, the demo
-- seed, an import, psql), in the writer's transaction. Each category row is updated once per statement
-- and the categories of one statement are locked in id order, so a bulk insert stays linear and two
-- moves in opposite directions cannot deadlock.
CREATE FUNCTION "forum_categories_add_topics"("category" integer, "topics" integer, "visible" integer) RETURNS void LANGUAGE sql AS $$
  UPDATE "forum_categories"
  SET "topics_count" = "topics_count" + "topics", "visible_topics_count" = "visible_topics_count" + "visible"
  WHERE "id" = "category"
$$;--> statement-breakpoint
-- INSERT and DELETE, per statement: changed_topics is the inserted or the deleted rows
CREATE FUNCTION "forum_topics_count_inserted_or_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
  per_category record;
BEGIN
  FOR per_category IN
    SELECT "category_id", count(*)::int AS "topics", (count(*) FILTER (WHERE "hidden_at" IS NULL))::int AS "visible"
    FROM "changed_topics" GROUP BY "category_id" ORDER BY "category_id"
  LOOP
    PERFORM "forum_categories_add_topics"(per_category."category_id", sign * per_category."topics", sign * per_category."visible");
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
-- a topic moved to another category, hidden or shown again, per row (a moderator's change, one topic at a time)
CREATE FUNCTION "forum_topics_count_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  per_category record;
BEGIN
  FOR per_category IN
    SELECT "category_id", sum("topics")::int AS "topics", sum("visible")::int AS "visible"
    FROM (VALUES
      (OLD."category_id", -1, -(OLD."hidden_at" IS NULL)::int),
      (NEW."category_id", 1, (NEW."hidden_at" IS NULL)::int)
    ) AS "change"("category_id", "topics", "visible")
    GROUP BY "category_id" ORDER BY "category_id"
  LOOP
    PERFORM "forum_categories_add_topics"(per_category."category_id", per_category."topics", per_category."visible");
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "forum_topics_count_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "forum_categories" SET "topics_count" = 0, "visible_topics_count" = 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "forum_topics_count_inserted" AFTER INSERT ON "forum_topics"
  REFERENCING NEW TABLE AS "changed_topics" FOR EACH STATEMENT EXECUTE FUNCTION "forum_topics_count_inserted_or_deleted"();--> statement-breakpoint
CREATE TRIGGER "forum_topics_count_deleted" AFTER DELETE ON "forum_topics"
  REFERENCING OLD TABLE AS "changed_topics" FOR EACH STATEMENT EXECUTE FUNCTION "forum_topics_count_inserted_or_deleted"();--> statement-breakpoint
CREATE TRIGGER "forum_topics_count_updated" AFTER UPDATE OF "category_id", "hidden_at" ON "forum_topics"
  FOR EACH ROW WHEN (OLD."category_id" IS DISTINCT FROM NEW."category_id" OR (OLD."hidden_at" IS NULL) <> (NEW."hidden_at" IS NULL))
  EXECUTE FUNCTION "forum_topics_count_updated"();--> statement-breakpoint
CREATE TRIGGER "forum_topics_count_truncated" AFTER TRUNCATE ON "forum_topics"
  FOR EACH STATEMENT EXECUTE FUNCTION "forum_topics_count_truncated"();--> statement-breakpoint
UPDATE "forum_categories" AS "c"
SET "topics_count" = "t"."topics", "visible_topics_count" = "t"."visible"
FROM (
  SELECT "category_id", count(*)::int AS "topics", (count(*) FILTER (WHERE "hidden_at" IS NULL))::int AS "visible"
  FROM "forum_topics" GROUP BY "category_id"
) AS "t"
WHERE "c"."id" = "t"."category_id";
