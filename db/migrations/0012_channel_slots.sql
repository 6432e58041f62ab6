CREATE TABLE "channel_listing_slots" (
	"tenant_id" uuid NOT NULL,
	"channel_instance_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"slot" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_listing_slots_channel_instance_id_listing_id_pk" PRIMARY KEY("channel_instance_id","listing_id")
);
--> statement-breakpoint
ALTER TABLE "channel_listing_slots" ADD CONSTRAINT "channel_listing_slots_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_listing_slots" ADD CONSTRAINT "channel_listing_slots_channel_instance_id_marketing_channel_instances_id_fk" FOREIGN KEY ("channel_instance_id") REFERENCES "public"."marketing_channel_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_listing_slots" ADD CONSTRAINT "channel_listing_slots_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cls_tenant_idx" ON "channel_listing_slots" USING btree ("tenant_id");