CREATE TABLE "messaging_scheduled_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"chat_id" text NOT NULL,
	"text" text,
	"template_id" uuid,
	"deal_id" uuid,
	"send_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"reason" text,
	"created_by_id" uuid,
	"api_key_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"message_id" text,
	"ack" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"fired_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messaging_scheduled_messages" ADD CONSTRAINT "messaging_scheduled_messages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_scheduled_messages" ADD CONSTRAINT "messaging_scheduled_messages_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_scheduled_messages" ADD CONSTRAINT "messaging_scheduled_messages_created_by_id_members_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_scheduled_idempotency_key" ON "messaging_scheduled_messages" USING btree ("tenant_id","api_key_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "messaging_scheduled_due_idx" ON "messaging_scheduled_messages" USING btree ("send_at") WHERE status = 'scheduled';--> statement-breakpoint
CREATE INDEX "messaging_scheduled_tenant_idx" ON "messaging_scheduled_messages" USING btree ("tenant_id","send_at","id");