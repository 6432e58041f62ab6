CREATE TABLE "deal_interests" (
	"tenant_id" uuid NOT NULL,
	"deal_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_visitors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"visitor_id" uuid NOT NULL,
	"deal_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_listings" (
	"tenant_id" uuid NOT NULL,
	"visitor_row_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deal_interests" ADD CONSTRAINT "deal_interests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_interests" ADD CONSTRAINT "deal_interests_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_interests" ADD CONSTRAINT "deal_interests_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_visitors" ADD CONSTRAINT "site_visitors_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_visitors" ADD CONSTRAINT "site_visitors_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_visitors" ADD CONSTRAINT "site_visitors_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_listings" ADD CONSTRAINT "visitor_listings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_listings" ADD CONSTRAINT "visitor_listings_visitor_row_id_site_visitors_id_fk" FOREIGN KEY ("visitor_row_id") REFERENCES "public"."site_visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_listings" ADD CONSTRAINT "visitor_listings_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deal_interests_key" ON "deal_interests" USING btree ("deal_id","listing_id","kind");--> statement-breakpoint
CREATE INDEX "deal_interests_tenant_idx" ON "deal_interests" USING btree ("tenant_id","deal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "site_visitors_site_visitor_key" ON "site_visitors" USING btree ("site_id","visitor_id");--> statement-breakpoint
CREATE INDEX "site_visitors_tenant_deal_idx" ON "site_visitors" USING btree ("tenant_id","deal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "visitor_listings_key" ON "visitor_listings" USING btree ("visitor_row_id","listing_id","kind");--> statement-breakpoint
CREATE INDEX "visitor_listings_tenant_idx" ON "visitor_listings" USING btree ("tenant_id","listing_id");