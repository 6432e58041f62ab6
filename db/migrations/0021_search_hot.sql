DROP INDEX "search_tenant_created_idx";--> statement-breakpoint
DROP INDEX "search_tenant_state_idx";--> statement-breakpoint
ALTER TABLE "search_tsv" ADD COLUMN "created_at" bigint;--> statement-breakpoint
-- Text ranking breaks ties on creation time: kept beside the vector so a text-only search reads one table.
UPDATE "search_tsv" t SET "created_at" = d."created_at" FROM "search_documents" d WHERE d."listing_id" = t."listing_id";
--> statement-breakpoint
-- The hot covering index: a tenant's documents newest first (the default order, NULLS LAST as the
-- ORDER BY says, so a page stops after per_page rows), with the columns common filters, scopes and
-- facets read, so counts and facets over a large share of a tenant are index-only scans.
CREATE INDEX "search_hot_idx" ON "search_documents" USING btree ("tenant_id", "created_at" DESC NULLS LAST, "listing_id" DESC)
  INCLUDE ("price", "bedrooms", "total_area", "has_photos", "photo_count", "listing_type_tok", "property_type_tok", "property_type",
    "location_state_tok", "location_city_tok", "location_city", "location_neighborhood_tok", "location_neighborhood",
    "location_latitude", "location_longitude", "visibility", "stage", "on_air", "price_visibility");
