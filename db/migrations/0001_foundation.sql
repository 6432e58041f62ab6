CREATE TYPE "public"."member_role" AS ENUM('owner', 'admin', 'manager', 'broker');--> statement-breakpoint
CREATE TYPE "public"."api_key_scope" AS ENUM('broad', 'restricted');--> statement-breakpoint
CREATE TYPE "public"."unit_status" AS ENUM('available', 'reserved', 'sold', 'unavailable');--> statement-breakpoint
CREATE TYPE "public"."media_type" AS ENUM('photo', 'floor_plan');--> statement-breakpoint
CREATE TYPE "public"."listing_type" AS ENUM('sale', 'rental');--> statement-breakpoint
CREATE TYPE "public"."listing_visibility" AS ENUM('public', 'private');--> statement-breakpoint
CREATE TYPE "public"."price_visibility" AS ENUM('public', 'private');--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb NOT NULL,
	"listing_code_seq" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"creci" text,
	"image" text,
	"role" "member_role" DEFAULT 'broker' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"scope" "api_key_scope" DEFAULT 'broad' NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "buildings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"developer" text,
	"publisher" text,
	"administrator" text,
	"launch_date" date,
	"opening_date" date,
	"number_of_towers" integer,
	"building_permit" text,
	"portfolio" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"total_units" integer,
	"floors" integer,
	"year_built" integer,
	"amenities" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"location_id" uuid,
	"street" text,
	"number" text,
	"neighborhood" text,
	"city" text,
	"state" text,
	"postal_code" text,
	"latitude" double precision,
	"longitude" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "typologies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"building_id" uuid NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"reference" text,
	"description" text,
	"bedrooms" integer,
	"bathrooms" integer,
	"suites" integer,
	"total_area" numeric(12, 2),
	"private_area" numeric(12, 2),
	"parking_spaces" integer,
	"base_price" numeric(14, 2),
	"price_per_sqm" numeric(14, 2),
	"features" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"total_units" integer,
	"expected_delivery" text,
	"construction_status" text,
	"order" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"show_on_site" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "units" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"typology_id" uuid NOT NULL,
	"unit_number" text NOT NULL,
	"block_tower" text,
	"floor" text,
	"status" "unit_status" DEFAULT 'available' NOT NULL,
	"price" numeric(14, 2),
	"property_id" uuid,
	"show_on_site" boolean DEFAULT true NOT NULL,
	"reservation" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"property_id" uuid NOT NULL,
	"type" "media_type" DEFAULT 'photo' NOT NULL,
	"url" text NOT NULL,
	"alt" text,
	"category" text,
	"order" integer DEFAULT 0 NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "properties" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"title" text,
	"type" text NOT NULL,
	"bedrooms" integer,
	"bathrooms" integer,
	"suites" integer,
	"parking_spaces" integer,
	"total_area" numeric(12, 2),
	"usable_area" numeric(12, 2),
	"private_area" numeric(12, 2),
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"condominium_fee" numeric(14, 2),
	"property_tax" numeric(14, 2),
	"street" text,
	"number" text,
	"complement" text,
	"neighborhood" text,
	"city" text,
	"state" text,
	"postal_code" text,
	"latitude" double precision,
	"longitude" double precision,
	"building_id" uuid,
	"assigned_to_id" uuid,
	"created_by_id" uuid,
	"owner_name" text,
	"owner_email" text,
	"owner_phone" text,
	"owner_whatsapp" text,
	"owner_cpf" text,
	"internal_notes" text,
	"video_url" text,
	"virtual_tour_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"property_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"type" "listing_type" NOT NULL,
	"price" numeric(14, 2),
	"currency" text DEFAULT 'BRL' NOT NULL,
	"price_visibility" "price_visibility" DEFAULT 'public' NOT NULL,
	"visibility" "listing_visibility" DEFAULT 'public' NOT NULL,
	"stage" text NOT NULL,
	"status" text,
	"listing_code" text NOT NULL,
	"is_primary_market" text DEFAULT 'false' NOT NULL,
	"typology_id" uuid,
	"translations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"type_specific_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"acceptance_criteria" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by_id" uuid,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"tenant_id" uuid NOT NULL,
	"event_name" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"user_id" uuid,
	"data" jsonb NOT NULL,
	"old" jsonb,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "typologies" ADD CONSTRAINT "typologies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "typologies" ADD CONSTRAINT "typologies_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_typology_id_typologies_id_fk" FOREIGN KEY ("typology_id") REFERENCES "public"."typologies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_assigned_to_id_members_id_fk" FOREIGN KEY ("assigned_to_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_created_by_id_members_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_typology_id_typologies_id_fk" FOREIGN KEY ("typology_id") REFERENCES "public"."typologies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_created_by_id_members_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_slug_key" ON "tenants" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "members_tenant_email_key" ON "members" USING btree ("tenant_id",lower("email"));--> statement-breakpoint
CREATE INDEX "members_tenant_phone_idx" ON "members" USING btree ("tenant_id","phone");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_tenant_idx" ON "api_keys" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "buildings_tenant_idx" ON "buildings" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "typologies_tenant_building_idx" ON "typologies" USING btree ("tenant_id","building_id","order");--> statement-breakpoint
CREATE INDEX "units_tenant_typology_idx" ON "units" USING btree ("tenant_id","typology_id","status");--> statement-breakpoint
CREATE INDEX "media_tenant_property_idx" ON "media" USING btree ("tenant_id","property_id","order");--> statement-breakpoint
CREATE INDEX "properties_tenant_created_idx" ON "properties" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "properties_tenant_assigned_idx" ON "properties" USING btree ("tenant_id","assigned_to_id");--> statement-breakpoint
CREATE UNIQUE INDEX "listings_tenant_code_key" ON "listings" USING btree ("tenant_id","listing_code");--> statement-breakpoint
CREATE INDEX "listings_tenant_created_idx" ON "listings" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "listings_tenant_property_idx" ON "listings" USING btree ("tenant_id","property_id");--> statement-breakpoint
CREATE INDEX "listings_tenant_stage_idx" ON "listings" USING btree ("tenant_id","stage");--> statement-breakpoint
CREATE INDEX "events_tenant_seq_idx" ON "events" USING btree ("tenant_id","seq");