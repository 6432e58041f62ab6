ALTER TABLE "delivery_attempts" DROP CONSTRAINT "delivery_attempts_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "delivery_attempts" DROP CONSTRAINT "delivery_attempts_event_id_events_id_fk";
--> statement-breakpoint
-- What the dropped keys' ON DELETE CASCADE did, once per statement (a tenant's deletion cascades
-- to its events, and so reaches these too).
CREATE FUNCTION "delivery_attempts_of_deleted_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "delivery_attempts" a USING "deleted" d WHERE a."tenant_id" = d."tenant_id" AND a."event_id" = d."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "delivery_attempts_of_deleted_events" AFTER DELETE ON "events"
  REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "delivery_attempts_of_deleted_events"();
