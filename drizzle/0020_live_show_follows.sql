CREATE TABLE "live_show_follows" (
	"show_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_show_follows_show_id_user_id_pk" PRIMARY KEY("show_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "live_show_follows" ADD CONSTRAINT "live_show_follows_show_id_live_shows_id_fk" FOREIGN KEY ("show_id") REFERENCES "public"."live_shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_show_follows" ADD CONSTRAINT "live_show_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;