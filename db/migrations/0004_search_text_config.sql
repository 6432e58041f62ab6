-- btree_gin lets a GIN index lead with tenant_id (search_tsv).
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
-- Portuguese full-text search that ignores accents: "Conceição" and "conceicao" index alike.
CREATE TEXT SEARCH CONFIGURATION pt_unaccent (COPY = portuguese);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION pt_unaccent ALTER MAPPING FOR hword, hword_part, word WITH unaccent, portuguese_stem;
