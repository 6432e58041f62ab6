-- The full-text vectors move into search_texts (issue 12): a row and a primary key of their own
-- cost ~110 bytes a listing, and large tenants' text is searched in memory. The table is built
-- anew from both (no dead copy of every row, indexes built in one pass), then given back its
-- constraints under the same names; writers wait for it (the lock), and the new table gets its
-- statistics at once (ANALYZE). The newest-first index loses its listing id (an incremental
-- sort orders the few ties).
LOCK TABLE "search_texts", "search_tsv" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
DROP VIEW "search_index";--> statement-breakpoint
CREATE TABLE "search_texts_new" AS SELECT x.*, t."tsv", t."created_at" FROM "search_texts" x LEFT JOIN "search_tsv" t ON t."listing_id" = x."listing_id";--> statement-breakpoint
DROP TABLE "search_tsv";--> statement-breakpoint
DROP TABLE "search_texts";--> statement-breakpoint
ALTER TABLE "search_texts_new" RENAME TO "search_texts";--> statement-breakpoint
ALTER TABLE "search_texts" ADD CONSTRAINT "search_texts_pkey" PRIMARY KEY ("listing_id");--> statement-breakpoint
ALTER TABLE "search_texts" ALTER COLUMN "tenant_id" SET NOT NULL, ALTER COLUMN "search_text" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "search_texts" ADD CONSTRAINT "search_texts_listing_id_search_documents_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."search_documents"("listing_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_texts" ADD CONSTRAINT "search_texts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_text_trgm_idx" ON "search_texts" USING gin (search_text gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_texts_tsv_idx" ON "search_texts" USING gin ("tenant_id","tsv");--> statement-breakpoint
DROP INDEX "search_tenant_created_idx";--> statement-breakpoint
CREATE INDEX "search_tenant_created_idx" ON "search_documents" USING btree ("tenant_id",created_at desc nulls last);--> statement-breakpoint
CREATE VIEW search_index AS SELECT d.*, x.extras, x.search_text, x.title, x.title_tok, x.description, x.description_tok, x.title_en, x.title_en_tok, x.description_en, x.description_en_tok, x.title_es, x.title_es_tok, x.description_es, x.description_es_tok, x.typology_id, x.typology_id_tok, x.building_id, x.building_id_tok, x.property_id, x.property_id_tok, x.typology_name, x.typology_name_tok, x.typology_code, x.typology_code_tok, x.expected_delivery, x.expected_delivery_tok, x.features, x.features_elems, x.tsv, x.tenant_id AS tsv_tenant_id FROM search_documents d LEFT JOIN search_texts x ON x.listing_id = d.listing_id;--> statement-breakpoint
ANALYZE "search_texts";
