ALTER TABLE "search_documents" ADD COLUMN "on_air" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- Existing documents: on air when the listing is in its tenant's active stage.
UPDATE "search_documents" d SET "on_air" = (d."stage" = t."settings"->'listingWorkflow'->>'activeStageId') FROM "tenants" t WHERE t."id" = d."tenant_id";
--> statement-breakpoint
-- The view's d.* was expanded when it was created: recreate it to include the new column.
DROP VIEW "search_index";
--> statement-breakpoint
CREATE VIEW search_index AS SELECT d.*, x.doc, x.search_text, x.title, x.title_tok, x.description, x.description_tok, x.title_en, x.title_en_tok, x.description_en, x.description_en_tok, x.title_es, x.title_es_tok, x.description_es, x.description_es_tok, x.typology_id, x.typology_id_tok, x.building_id, x.building_id_tok, x.property_id, x.property_id_tok, x.typology_name, x.typology_name_tok, x.typology_code, x.typology_code_tok, x.expected_delivery, x.expected_delivery_tok, x.features, x.features_elems, t.tsv, t.tenant_id AS tsv_tenant_id FROM search_documents d LEFT JOIN search_texts x ON x.listing_id = d.listing_id LEFT JOIN search_tsv t ON t.listing_id = d.listing_id;
