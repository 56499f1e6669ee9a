ALTER TABLE "users" ADD COLUMN "goal_days_per_week" integer DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "goal_minutes_per_day" integer DEFAULT 20 NOT NULL;