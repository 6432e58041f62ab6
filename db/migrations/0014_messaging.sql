CREATE TABLE "messaging_channel_grants" (
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	CONSTRAINT "messaging_channel_grants_channel_id_member_id_pk" PRIMARY KEY("channel_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "messaging_channels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"transport" text NOT NULL,
	"provider" text NOT NULL,
	"base_url" text NOT NULL,
	"credentials" text NOT NULL,
	"webhook_secret" text NOT NULL,
	"channel_token" text NOT NULL,
	"owner_id" uuid,
	"privacy_mode" text DEFAULT 'off' NOT NULL,
	"mock" boolean DEFAULT false NOT NULL,
	"connection_state" text DEFAULT 'draft' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_chat_privacy" (
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"chat_id" text NOT NULL,
	"state" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messaging_chat_privacy_channel_id_chat_id_pk" PRIMARY KEY("channel_id","chat_id")
);
--> statement-breakpoint
CREATE TABLE "messaging_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"chat_id" text NOT NULL,
	"lid" text,
	"display_name" text,
	"handle_masked" text NOT NULL,
	"kind" text DEFAULT 'contact' NOT NULL,
	"last_activity_at" timestamp with time zone NOT NULL,
	"last_preview" text,
	"last_from_me" boolean DEFAULT false NOT NULL,
	"last_message_id" text,
	"unread_count" integer DEFAULT 0 NOT NULL,
	"awaiting_reply" boolean DEFAULT false NOT NULL,
	"labels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"assigned_to_id" uuid,
	"customer_id" uuid,
	"primary_deal_id" uuid,
	"pinned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_inbound_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"event" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "messaging_labels" (
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"label_id" text NOT NULL,
	"name" text NOT NULL,
	"color" text,
	CONSTRAINT "messaging_labels_channel_id_label_id_pk" PRIMARY KEY("channel_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "messaging_opt_outs" (
	"tenant_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messaging_opt_outs_tenant_id_phone_pk" PRIMARY KEY("tenant_id","phone")
);
--> statement-breakpoint
CREATE TABLE "messaging_seen_messages" (
	"channel_id" uuid NOT NULL,
	"message_id" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messaging_seen_messages_channel_id_message_id_pk" PRIMARY KEY("channel_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "messaging_send_keys" (
	"tenant_id" uuid NOT NULL,
	"api_key_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"ack" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messaging_send_keys_tenant_id_api_key_id_idempotency_key_pk" PRIMARY KEY("tenant_id","api_key_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "messaging_sent_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"chat_id" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"author_id" uuid,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"status" text DEFAULT 'approved' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messaging_channel_grants" ADD CONSTRAINT "messaging_channel_grants_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_channel_grants" ADD CONSTRAINT "messaging_channel_grants_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_channel_grants" ADD CONSTRAINT "messaging_channel_grants_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_channels" ADD CONSTRAINT "messaging_channels_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_channels" ADD CONSTRAINT "messaging_channels_owner_id_members_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_chat_privacy" ADD CONSTRAINT "messaging_chat_privacy_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_chat_privacy" ADD CONSTRAINT "messaging_chat_privacy_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_conversations" ADD CONSTRAINT "messaging_conversations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_conversations" ADD CONSTRAINT "messaging_conversations_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_inbound_events" ADD CONSTRAINT "messaging_inbound_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_inbound_events" ADD CONSTRAINT "messaging_inbound_events_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_labels" ADD CONSTRAINT "messaging_labels_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_labels" ADD CONSTRAINT "messaging_labels_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_opt_outs" ADD CONSTRAINT "messaging_opt_outs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_seen_messages" ADD CONSTRAINT "messaging_seen_messages_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_send_keys" ADD CONSTRAINT "messaging_send_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_sent_messages" ADD CONSTRAINT "messaging_sent_messages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_sent_messages" ADD CONSTRAINT "messaging_sent_messages_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_templates" ADD CONSTRAINT "messaging_templates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_templates" ADD CONSTRAINT "messaging_templates_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messaging_grants_member_idx" ON "messaging_channel_grants" USING btree ("tenant_id","member_id");--> statement-breakpoint
CREATE INDEX "messaging_channels_tenant_idx" ON "messaging_channels" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_channels_token_key" ON "messaging_channels" USING btree ("channel_token");--> statement-breakpoint
CREATE INDEX "messaging_privacy_tenant_idx" ON "messaging_chat_privacy" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_conversations_chat_key" ON "messaging_conversations" USING btree ("channel_id","chat_id");--> statement-breakpoint
CREATE INDEX "messaging_conversations_activity_idx" ON "messaging_conversations" USING btree ("tenant_id","last_activity_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messaging_conversations_channel_idx" ON "messaging_conversations" USING btree ("channel_id","last_activity_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messaging_inbound_pending_idx" ON "messaging_inbound_events" USING btree ("received_at") WHERE status IN ('received', 'processing');--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_sent_provider_key" ON "messaging_sent_messages" USING btree ("channel_id","provider_message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_templates_name_key" ON "messaging_templates" USING btree ("channel_id","name","language");