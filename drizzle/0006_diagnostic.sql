CREATE TABLE "diagnostic_leads" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"skill" text NOT NULL,
	"pedal" text NOT NULL,
	"tempo" integer,
	"scores" jsonb NOT NULL,
	"primary_killer" text NOT NULL,
	"answers" jsonb NOT NULL,
	"answers_text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "diagnostic_leads" ADD CONSTRAINT "diagnostic_leads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "diagnostic_leads_created_idx" ON "diagnostic_leads" USING btree ("created_at");