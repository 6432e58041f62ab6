CREATE TABLE "listing_site_views" (
	"tenant_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "listing_site_views_listing_id_day_pk" PRIMARY KEY("listing_id","day")
);
--> statement-breakpoint
ALTER TABLE "listing_site_views" ADD CONSTRAINT "listing_site_views_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_site_views" ADD CONSTRAINT "listing_site_views_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_site_views_tenant_idx" ON "listing_site_views" USING btree ("tenant_id","listing_id");--> statement-breakpoint
CREATE INDEX "search_valuation_idx" ON "search_documents" USING btree ("tenant_id",location_city_tok,location_latitude) WHERE listing_type = 'sale' and price > 0 and total_area > 0;