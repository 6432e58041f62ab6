-- Portuguese full-text search that ignores accents: "Conceição" and "conceicao" index alike.
CREATE TEXT SEARCH CONFIGURATION pt_unaccent (COPY = portuguese);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION pt_unaccent ALTER MAPPING FOR hword, hword_part, word WITH unaccent, portuguese_stem;
