ALTER TABLE "saved_search_hits" DROP CONSTRAINT "saved_search_hits_saved_search_id_saved_searches_id_fk";
--> statement-breakpoint
ALTER TABLE "saved_search_hits" DROP CONSTRAINT "saved_search_hits_listing_id_listings_id_fk";
--> statement-breakpoint
ALTER TABLE "saved_search_hits" DROP CONSTRAINT "saved_search_hits_tenant_id_tenants_id_fk";
--> statement-breakpoint
CREATE INDEX "saved_search_hits_listing_idx" ON "saved_search_hits" USING btree ("listing_id");--> statement-breakpoint
-- What the dropped keys' ON DELETE CASCADE did, once per statement (a tenant's deletion cascades
-- through saved_searches and listings, and so reaches these too).
CREATE FUNCTION "saved_search_hits_of_deleted_searches"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "saved_search_hits" h USING "deleted" d WHERE h."saved_search_id" = d."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "saved_search_hits_of_deleted_searches" AFTER DELETE ON "saved_searches"
  REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "saved_search_hits_of_deleted_searches"();
--> statement-breakpoint
CREATE FUNCTION "saved_search_hits_of_deleted_listings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "saved_search_hits" h USING "deleted" d WHERE h."listing_id" = d."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "saved_search_hits_of_deleted_listings" AFTER DELETE ON "listings"
  REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "saved_search_hits_of_deleted_listings"();
