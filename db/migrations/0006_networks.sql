CREATE TABLE "network_listings" (
	"network_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	CONSTRAINT "network_listings_network_id_listing_id_pk" PRIMARY KEY("network_id","listing_id")
);
--> statement-breakpoint
CREATE TABLE "network_members" (
	"network_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "network_members_network_id_tenant_id_pk" PRIMARY KEY("network_id","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "networks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"invite_code_hash" text NOT NULL,
	"created_by_tenant_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "network_listings" ADD CONSTRAINT "network_listings_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_listings" ADD CONSTRAINT "network_listings_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_listings" ADD CONSTRAINT "network_listings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_members" ADD CONSTRAINT "network_members_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_members" ADD CONSTRAINT "network_members_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "networks" ADD CONSTRAINT "networks_created_by_tenant_id_tenants_id_fk" FOREIGN KEY ("created_by_tenant_id") REFERENCES "public"."tenants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "network_listings_tenant_idx" ON "network_listings" USING btree ("tenant_id","listing_id");--> statement-breakpoint
CREATE INDEX "network_members_tenant_idx" ON "network_members" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "networks_invite_key" ON "networks" USING btree ("invite_code_hash");