-- Site domains become one name per host (issue #32, D1): lower case, no port, no trailing dot,
-- unique across tenants among the sites that hold them. Existing sites keep serving their name
-- (custom domains until another tenant proves them in DNS);
-- where several now spell the same name, the oldest keeps it and the others are unpublished with
-- status 'taken' (and a WARNING in the database log for each, which the server's log repeats).
DROP INDEX "sites_domain_key";--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "domain_status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "domain_token" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "domain_verified_at" timestamp with time zone;--> statement-breakpoint
UPDATE "sites" SET "domain" = regexp_replace(regexp_replace(lower("domain"), ':[0-9]+$', ''), '\.$', '')
  WHERE "domain" <> regexp_replace(regexp_replace(lower("domain"), ':[0-9]+$', ''), '\.$', '');--> statement-breakpoint
DO $$
DECLARE r record;
BEGIN
  FOR r IN
    SELECT s.id, s.tenant_id, s.domain, first_value(s.id) OVER w AS holder, row_number() OVER w AS n
    FROM "sites" s
    WINDOW w AS (PARTITION BY s.domain ORDER BY s.created_at, s.id)
  LOOP
    IF r.n > 1 THEN
      UPDATE "sites" SET "domain_status" = 'taken', "published" = false, "updated_at" = now() WHERE id = r.id;
      RAISE WARNING 'site % of tenant % unpublished: its domain % is held by the older site %', r.id, r.tenant_id, r.domain, r.holder;
    END IF;
  END LOOP;
END $$;--> statement-breakpoint
-- Custom domains held from before get a token: their owner can prove them (and keep them for good);
-- until then another tenant's proof of the same name takes it over.
UPDATE "sites" SET "domain_token" = 'imobicrm-verify=' || md5(random()::text || id::text)
  WHERE "domain" NOT LIKE '%.localhost';--> statement-breakpoint
CREATE UNIQUE INDEX "sites_domain_held_key" ON "sites" USING btree ("domain") WHERE domain_status = 'active';--> statement-breakpoint
CREATE INDEX "sites_domain_idx" ON "sites" USING btree ("domain");
