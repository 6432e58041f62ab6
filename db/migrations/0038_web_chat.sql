CREATE TABLE "messaging_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "messaging_messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"chat_id" text NOT NULL,
	"direction" text NOT NULL,
	"message_type" text DEFAULT 'text' NOT NULL,
	"text" text,
	"author_id" uuid,
	"client_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "web_chat_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"site_id" uuid,
	"share_link_id" uuid,
	"chat_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"name" text,
	"phone" text,
	"email" text,
	"consent" boolean DEFAULT false NOT NULL,
	"page_url" text,
	"listing_id" uuid,
	"locale" text,
	"inbound_lead_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "chat" jsonb;--> statement-breakpoint
ALTER TABLE "messaging_messages" ADD CONSTRAINT "messaging_messages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_messages" ADD CONSTRAINT "messaging_messages_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_chat_sessions" ADD CONSTRAINT "web_chat_sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_chat_sessions" ADD CONSTRAINT "web_chat_sessions_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_chat_sessions" ADD CONSTRAINT "web_chat_sessions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_chat_sessions" ADD CONSTRAINT "web_chat_sessions_share_link_id_share_links_id_fk" FOREIGN KEY ("share_link_id") REFERENCES "public"."share_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messaging_messages_chat_idx" ON "messaging_messages" USING btree ("channel_id","chat_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_messages_client_key" ON "messaging_messages" USING btree ("channel_id","chat_id","client_message_id") WHERE client_message_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "web_chat_sessions_token_key" ON "web_chat_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "web_chat_sessions_chat_key" ON "web_chat_sessions" USING btree ("channel_id","chat_id");--> statement-breakpoint
CREATE INDEX "web_chat_sessions_lead_idx" ON "web_chat_sessions" USING btree ("inbound_lead_id");--> statement-breakpoint
CREATE INDEX "web_chat_sessions_tenant_idx" ON "web_chat_sessions" USING btree ("tenant_id","created_at");