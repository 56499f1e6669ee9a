ALTER TABLE "contact_messages" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "page" text;--> statement-breakpoint
ALTER TABLE "video_submissions" ADD COLUMN "captions_path" text;--> statement-breakpoint
ALTER TABLE "video_submissions" ADD COLUMN "captions_lang" text;