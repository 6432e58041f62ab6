CREATE TABLE "first_contact_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"lead_id" uuid NOT NULL,
	"marketing_channel_id" uuid NOT NULL,
	"deal_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"send_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"outcome" text,
	"matched" jsonb,
	"message_id" text,
	"processed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketing_channel_instances" ADD COLUMN "first_contact" jsonb;--> statement-breakpoint
ALTER TABLE "first_contact_requests" ADD CONSTRAINT "first_contact_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "first_contact_requests" ADD CONSTRAINT "first_contact_requests_lead_id_inbound_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."inbound_leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "first_contact_requests" ADD CONSTRAINT "first_contact_requests_marketing_channel_id_marketing_channel_instances_id_fk" FOREIGN KEY ("marketing_channel_id") REFERENCES "public"."marketing_channel_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "first_contact_requests" ADD CONSTRAINT "first_contact_requests_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "first_contact_requests_lead_key" ON "first_contact_requests" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "first_contact_requests_due_idx" ON "first_contact_requests" USING btree ("status","send_at");