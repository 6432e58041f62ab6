CREATE TABLE "search_removals" (
	"tenant_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"search_version" bigint NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "search_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "search_removals_tenant_version_idx" ON "search_removals" USING btree ("tenant_id","search_version");--> statement-breakpoint
CREATE INDEX "search_tenant_version_idx" ON "search_documents" USING btree ("tenant_id","search_version");--> statement-breakpoint
-- Each written document carries its tenant's search version (bumped first in the same transaction
-- by reindexListings, which also serialises writers on the tenant row), so an in-memory index at
-- version V reads exactly the rows written after it.
CREATE FUNCTION "search_documents_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT t."search_version" INTO NEW."search_version" FROM "tenants" t WHERE t."id" = NEW."tenant_id";
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "search_documents_stamp" BEFORE INSERT OR UPDATE ON "search_documents"
  FOR EACH ROW EXECUTE FUNCTION "search_documents_stamp"();
--> statement-breakpoint
-- A removed document (a deleted listing's cascade, or reindexListings dropping it) bumps the
-- version and leaves a tombstone, so caches and in-memory indexes drop it whatever removed it.
CREATE FUNCTION "search_documents_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v bigint;
BEGIN
  UPDATE "tenants" SET "search_version" = "search_version" + 1 WHERE "id" = OLD."tenant_id" RETURNING "search_version" INTO v;
  IF v IS NOT NULL THEN
    INSERT INTO "search_removals" ("tenant_id", "listing_id", "search_version") VALUES (OLD."tenant_id", OLD."listing_id", v);
  END IF;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER "search_documents_removed" AFTER DELETE ON "search_documents"
  FOR EACH ROW EXECUTE FUNCTION "search_documents_removed"();
