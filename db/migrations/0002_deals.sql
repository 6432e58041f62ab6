CREATE TYPE "public"."deal_status" AS ENUM('open', 'won', 'lost');--> statement-breakpoint
CREATE TYPE "public"."deal_type" AS ENUM('sale', 'rental');--> statement-breakpoint
CREATE TABLE "distribution_queue_members" (
	"tenant_id" uuid NOT NULL,
	"channel_instance_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "distribution_queue_members_channel_instance_id_member_id_pk" PRIMARY KEY("channel_instance_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "marketing_channel_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'api' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"distribution_cursor" integer DEFAULT 0 NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"cpf" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deal_contacts" (
	"tenant_id" uuid NOT NULL,
	"deal_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"role" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "deal_contacts_deal_id_contact_id_pk" PRIMARY KEY("deal_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "deals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"title" text NOT NULL,
	"deal_type" "deal_type" NOT NULL,
	"stage" text NOT NULL,
	"status" "deal_status" DEFAULT 'open' NOT NULL,
	"currency" text DEFAULT 'BRL' NOT NULL,
	"amount" numeric(14, 2),
	"assigned_to_id" uuid,
	"created_by_id" uuid,
	"custom_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"source" text,
	"campaign" text,
	"marketing_channel_instance_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "distribution_queue_members" ADD CONSTRAINT "distribution_queue_members_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_queue_members" ADD CONSTRAINT "distribution_queue_members_channel_instance_id_marketing_channel_instances_id_fk" FOREIGN KEY ("channel_instance_id") REFERENCES "public"."marketing_channel_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_queue_members" ADD CONSTRAINT "distribution_queue_members_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketing_channel_instances" ADD CONSTRAINT "marketing_channel_instances_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_contacts" ADD CONSTRAINT "deal_contacts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_contacts" ADD CONSTRAINT "deal_contacts_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_contacts" ADD CONSTRAINT "deal_contacts_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_assigned_to_id_members_id_fk" FOREIGN KEY ("assigned_to_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_created_by_id_members_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_marketing_channel_instance_id_marketing_channel_instances_id_fk" FOREIGN KEY ("marketing_channel_instance_id") REFERENCES "public"."marketing_channel_instances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dqm_channel_position_key" ON "distribution_queue_members" USING btree ("channel_instance_id","position");--> statement-breakpoint
CREATE INDEX "dqm_tenant_idx" ON "distribution_queue_members" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "mci_tenant_idx" ON "marketing_channel_instances" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_tenant_phone_key" ON "contacts" USING btree ("tenant_id","phone") WHERE "contacts"."phone" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_tenant_email_key" ON "contacts" USING btree ("tenant_id",lower("email")) WHERE "contacts"."email" is not null;--> statement-breakpoint
CREATE INDEX "deal_contacts_tenant_contact_idx" ON "deal_contacts" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "deals_tenant_created_idx" ON "deals" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "deals_tenant_stage_idx" ON "deals" USING btree ("tenant_id","stage");--> statement-breakpoint
CREATE INDEX "deals_tenant_assigned_idx" ON "deals" USING btree ("tenant_id","assigned_to_id");--> statement-breakpoint
CREATE INDEX "deals_tenant_channel_idx" ON "deals" USING btree ("tenant_id","marketing_channel_instance_id");--> statement-breakpoint
CREATE INDEX "deals_custom_data_gin" ON "deals" USING gin ("custom_data");