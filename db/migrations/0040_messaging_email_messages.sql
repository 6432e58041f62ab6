CREATE TABLE "messaging_email_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"chat_id" text NOT NULL,
	"message_id" text NOT NULL,
	"correspondent" text NOT NULL,
	"from_me" boolean NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"type" text NOT NULL,
	"text" text,
	"sender_name" text,
	"subject" text,
	"subject_key" text,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messaging_email_messages" ADD CONSTRAINT "messaging_email_messages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_email_messages" ADD CONSTRAINT "messaging_email_messages_channel_id_messaging_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."messaging_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_email_messages_id_key" ON "messaging_email_messages" USING btree ("channel_id","message_id");--> statement-breakpoint
CREATE INDEX "messaging_email_messages_chat_idx" ON "messaging_email_messages" USING btree ("channel_id","chat_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messaging_email_messages_subject_idx" ON "messaging_email_messages" USING btree ("channel_id","correspondent","subject_key");