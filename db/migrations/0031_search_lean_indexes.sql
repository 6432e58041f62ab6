-- The covering "hot" index (migration 0021) goes too: large tenants are searched in memory.
DROP INDEX "search_hot_idx";--> statement-breakpoint
DROP INDEX "search_tenant_price_idx";--> statement-breakpoint
DROP INDEX "search_tenant_type_price_idx";--> statement-breakpoint
DROP INDEX "search_tenant_city_idx";--> statement-breakpoint
DROP INDEX "search_tenant_hood_idx";--> statement-breakpoint
DROP INDEX "search_tenant_lat_idx";--> statement-breakpoint
DROP INDEX "search_tenant_published_idx";--> statement-breakpoint
CREATE INDEX "search_tenant_created_idx" ON "search_documents" USING btree ("tenant_id",created_at desc nulls last,listing_id desc);