ALTER TABLE "search_texts" ADD COLUMN "extras" jsonb;--> statement-breakpoint
-- What a stored document needs beside its columns (lib/search/stored-document.ts): its property
-- type's label, photos and video/tour links when it has them, and the decimals a `real` column
-- cannot give back exactly (anything but an integer up to 2^24).
UPDATE "search_texts" SET "extras" = nullif(jsonb_strip_nulls(jsonb_build_object(
  'propertyTypeLabel', doc->'propertyTypeLabel',
  'imageUrls', CASE WHEN jsonb_typeof(doc->'imageUrls') = 'array' AND jsonb_array_length(doc->'imageUrls') > 0 THEN doc->'imageUrls' END,
  'videoUrl', doc->'videoUrl',
  'tourUrl', doc->'tourUrl',
  'price', CASE WHEN jsonb_typeof(doc->'price') = 'number' AND ((doc->>'price')::numeric <> trunc((doc->>'price')::numeric) OR abs((doc->>'price')::numeric) > 16777216) THEN doc->'price' END,
  'totalArea', CASE WHEN jsonb_typeof(doc->'totalArea') = 'number' AND ((doc->>'totalArea')::numeric <> trunc((doc->>'totalArea')::numeric) OR abs((doc->>'totalArea')::numeric) > 16777216) THEN doc->'totalArea' END,
  'privateArea', CASE WHEN jsonb_typeof(doc->'privateArea') = 'number' AND ((doc->>'privateArea')::numeric <> trunc((doc->>'privateArea')::numeric) OR abs((doc->>'privateArea')::numeric) > 16777216) THEN doc->'privateArea' END,
  'condoFee', CASE WHEN jsonb_typeof(doc->'condoFee') = 'number' AND ((doc->>'condoFee')::numeric <> trunc((doc->>'condoFee')::numeric) OR abs((doc->>'condoFee')::numeric) > 16777216) THEN doc->'condoFee' END,
  'propertyTax', CASE WHEN jsonb_typeof(doc->'propertyTax') = 'number' AND ((doc->>'propertyTax')::numeric <> trunc((doc->>'propertyTax')::numeric) OR abs((doc->>'propertyTax')::numeric) > 16777216) THEN doc->'propertyTax' END,
  'typologyBasePrice', CASE WHEN jsonb_typeof(doc->'typologyBasePrice') = 'number' AND ((doc->>'typologyBasePrice')::numeric <> trunc((doc->>'typologyBasePrice')::numeric) OR abs((doc->>'typologyBasePrice')::numeric) > 16777216) THEN doc->'typologyBasePrice' END,
  'typologyPricePerSqm', CASE WHEN jsonb_typeof(doc->'typologyPricePerSqm') = 'number' AND ((doc->>'typologyPricePerSqm')::numeric <> trunc((doc->>'typologyPricePerSqm')::numeric) OR abs((doc->>'typologyPricePerSqm')::numeric) > 16777216) THEN doc->'typologyPricePerSqm' END
)), '{}'::jsonb);
