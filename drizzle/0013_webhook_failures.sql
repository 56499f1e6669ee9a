CREATE TABLE "webhook_failures" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text,
	"event_type" text,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"outline" text,
	"deliveries" integer DEFAULT 1 NOT NULL,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_failures_event_idx" ON "webhook_failures" USING btree ("provider","event_id","kind");--> statement-breakpoint
CREATE INDEX "webhook_failures_last_idx" ON "webhook_failures" USING btree ("last_at");