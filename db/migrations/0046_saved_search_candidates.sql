DROP INDEX "saved_searches_candidates_idx";--> statement-breakpoint
ALTER TABLE "saved_searches" ADD COLUMN "hood_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD COLUMN "min_bedrooms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Existing searches: their neighbourhood and bedrooms as the new candidate columns (folded like lib/saved-searches/filters.ts foldText).
UPDATE "saved_searches" SET "hood_key" = coalesce(lower(regexp_replace(trim(unaccent(filters->>'neighborhood')), '\s+', ' ', 'g')), ''), "min_bedrooms" = coalesce((filters->>'bedrooms')::int, 0);--> statement-breakpoint
CREATE INDEX "saved_searches_candidates_idx" ON "saved_searches" USING btree ("tenant_id","listing_type","city_key","hood_key","property_type",coalesce(max_price, 999999999999),coalesce(min_price, 0),"min_bedrooms") WHERE status = 'active';