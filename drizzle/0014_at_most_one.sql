CREATE TABLE "retention_uses" (
	"subscription_id" integer NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer NOT NULL,
	"client_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "retention_uses_subscription_id_kind_pk" PRIMARY KEY("subscription_id","kind")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "hold" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "retention_uses" ADD CONSTRAINT "retention_uses_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_hold" ON "orders" USING btree ("user_id","hold") WHERE "orders"."hold" is not null;--> statement-breakpoint
-- Offers already used before this table existed: a pause is known by paused_at or a stored
-- "pause" outcome, a discount by discount_used_at or a stored "discount" outcome. One row per
-- subscription and offer, however many times older data recorded it.
INSERT INTO "retention_uses" ("subscription_id", "kind", "user_id", "created_at", "done_at")
SELECT s."id", u."kind", s."user_id", min(u."at"), min(u."at")
FROM (
  SELECT "id" AS "subscription_id", 'pause' AS "kind", "paused_at" AS "at" FROM "subscriptions" WHERE "paused_at" IS NOT NULL
  UNION ALL
  SELECT "id", 'discount', "discount_used_at" FROM "subscriptions" WHERE "discount_used_at" IS NOT NULL
  UNION ALL
  SELECT "subscription_id", "outcome", "created_at" FROM "cancellation_feedback" WHERE "subscription_id" IS NOT NULL AND "outcome" IN ('pause', 'discount')
) u
JOIN "subscriptions" s ON s."id" = u."subscription_id"
GROUP BY s."id", u."kind", s."user_id"
ON CONFLICT DO NOTHING;
