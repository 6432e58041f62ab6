-- The two tables without foreign keys (0048, 0049) lose their rows with their parents by triggers
-- on those parents, which can run while a writer that read a parent has not committed its row yet
-- (the matcher's hits, the delivery recorder's attempts). A tenant's deletion waits for those
-- writers (its cascade meets the rows they lock: the matcher's cursor, the recorder's deliveries),
-- and this trigger runs after every cascade of the statement, so it sees and removes what they wrote.
CREATE FUNCTION "unkeyed_rows_of_deleted_tenants"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "saved_search_hits" h USING "deleted" d WHERE h."tenant_id" = d."id";
  DELETE FROM "delivery_attempts" a USING "deleted" d WHERE a."tenant_id" = d."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "unkeyed_rows_of_deleted_tenants" AFTER DELETE ON "tenants"
  REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "unkeyed_rows_of_deleted_tenants"();
