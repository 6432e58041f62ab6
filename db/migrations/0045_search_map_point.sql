-- The map endpoint (lib/sites/site-map.ts) groups a tenant's points rounded to 3 decimals, the public
-- precision: indexed by that rounding, with the columns the scope tests read, a view's pass is an
-- index-only range scan (hand-written: drizzle's index builder has no INCLUDE).
CREATE INDEX IF NOT EXISTS "search_map_point_idx" ON "search_documents" USING btree ("tenant_id", (floor("location_latitude" * 1000 + 0.5) / 1000), (floor("location_longitude" * 1000 + 0.5) / 1000)) INCLUDE ("location_latitude", "location_longitude", "visibility", "stage", "listing_id") WHERE "location_latitude" IS NOT NULL AND "location_longitude" IS NOT NULL;
