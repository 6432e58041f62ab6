ALTER TABLE "buildings" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "typologies" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "external_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "buildings_tenant_external_key" ON "buildings" USING btree ("tenant_id","external_id") WHERE external_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "typologies_tenant_external_key" ON "typologies" USING btree ("tenant_id","external_id") WHERE external_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "units_tenant_external_key" ON "units" USING btree ("tenant_id","external_id") WHERE external_id IS NOT NULL;