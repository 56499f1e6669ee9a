CREATE TABLE "receipt_counters" (
	"series" text PRIMARY KEY NOT NULL,
	"last" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"number" integer NOT NULL,
	"source" text NOT NULL,
	"user_id" integer,
	"member_name" text NOT NULL,
	"member_email" text NOT NULL,
	"seller" jsonb NOT NULL,
	"item" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"tax_cents" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"payment_method" text DEFAULT '' NOT NULL,
	"provider" text NOT NULL,
	"invoice_id" integer,
	"order_id" integer,
	"subscription_id" integer,
	"refers_to_id" integer,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_number_unique" ON "receipts" USING btree ("kind","number");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_source_unique" ON "receipts" USING btree ("source");--> statement-breakpoint
CREATE INDEX "receipts_user_idx" ON "receipts" USING btree ("user_id","issued_at");--> statement-breakpoint
CREATE INDEX "receipts_refers_idx" ON "receipts" USING btree ("refers_to_id");--> statement-breakpoint
-- payments recorded before receipts existed get theirs, numbered in the order they were paid
INSERT INTO "receipts" ("kind", "number", "source", "user_id", "member_name", "member_email", "seller", "item", "amount_cents", "currency", "payment_method", "provider", "invoice_id", "order_id", "subscription_id", "issued_at")
SELECT 'receipt', row_number() OVER (ORDER BY i."created_at", i."id"), 'invoice:' || i."id", i."user_id", u."name", u."email",
  '{"name":"Backbeat Drum Academy","address":"","taxLabel":"Tax","taxPercent":0}'::jsonb,
  coalesce(nullif(i."description", ''), 'Payment'), i."amount_cents", i."currency",
  coalesce(s."payment_method", o."metadata"->>'paymentMethod', ''), i."provider", i."id", i."order_id", i."subscription_id", i."created_at"
FROM "invoices" i
JOIN "users" u ON u."id" = i."user_id"
LEFT JOIN "subscriptions" s ON s."id" = i."subscription_id"
LEFT JOIN "orders" o ON o."id" = i."order_id"
WHERE i."status" IN ('paid', 'refunded');
--> statement-breakpoint
INSERT INTO "receipt_counters" ("series", "last")
VALUES ('receipt', (SELECT count(*) FROM "receipts" WHERE "kind" = 'receipt')), ('credit_note', 0);
