CREATE TYPE "public"."inbound_lead_status" AS ENUM('received', 'processing', 'processed', 'failed');--> statement-breakpoint
CREATE TABLE "inbound_leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"origin_lead_id" text,
	"status" "inbound_lead_status" DEFAULT 'received' NOT NULL,
	"destination" text DEFAULT 'deal' NOT NULL,
	"raw_body" text NOT NULL,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"lead" jsonb NOT NULL,
	"deal_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"listing_id" uuid,
	"assigned_to_id" uuid,
	"decision" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "marketing_channel_instances" ADD COLUMN "path_token" text;--> statement-breakpoint
-- Existing channels get a token of 244 random bits (two v4 UUIDs); new ones get 192 bits from the app.
UPDATE "marketing_channel_instances" SET "path_token" = 'chnl_' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '') WHERE "path_token" IS NULL;--> statement-breakpoint
ALTER TABLE "marketing_channel_instances" ALTER COLUMN "path_token" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "marketing_channel_instances" ADD COLUMN "secret" text;--> statement-breakpoint
ALTER TABLE "marketing_channel_instances" ADD COLUMN "feed_token_hash" text;--> statement-breakpoint
ALTER TABLE "marketing_channel_instances" ADD COLUMN "destinations" jsonb DEFAULT '{"deal":true,"listing":false}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "marketing_channel_instances" ADD COLUMN "lead_intake_config" jsonb DEFAULT '{"syncResponse":false}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "marketing_channel_instances" ADD COLUMN "feed_criteria" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "inbound_leads" ADD CONSTRAINT "inbound_leads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_leads" ADD CONSTRAINT "inbound_leads_channel_id_marketing_channel_instances_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."marketing_channel_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_leads_origin_key" ON "inbound_leads" USING btree ("channel_id","origin_lead_id") WHERE origin_lead_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "inbound_leads_pending_idx" ON "inbound_leads" USING btree ("status","received_at") WHERE status IN ('received', 'processing');--> statement-breakpoint
CREATE INDEX "inbound_leads_channel_idx" ON "inbound_leads" USING btree ("tenant_id","channel_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mci_path_token_key" ON "marketing_channel_instances" USING btree ("path_token");