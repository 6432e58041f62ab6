CREATE TABLE "search_documents" (
	"listing_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"assigned_to_id" uuid,
	"created_by_id" uuid,
	"property_created_by_id" uuid,
	"network_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"location_latitude" double precision,
	"location_longitude" double precision,
	"listing_code" text,
	"listing_code_tok" text[],
	"listing_type" text,
	"listing_type_tok" text[],
	"property_type" text,
	"property_type_tok" text[],
	"location_neighborhood" text,
	"location_neighborhood_tok" text[],
	"location_city" text,
	"location_city_tok" text[],
	"location_state" text,
	"location_state_tok" text[],
	"location_street" text,
	"location_street_tok" text[],
	"visibility" text,
	"visibility_tok" text[],
	"stage" text,
	"stage_tok" text[],
	"status" text,
	"status_tok" text[],
	"price_visibility" text,
	"price_visibility_tok" text[],
	"market_type" text,
	"market_type_tok" text[],
	"construction_status" text,
	"construction_status_tok" text[],
	"occupancy_status" text,
	"occupancy_status_tok" text[],
	"condition" text,
	"condition_tok" text[],
	"sla_status" text,
	"sla_status_tok" text[],
	"provider_name" text,
	"provider_name_tok" text[],
	"property_features" text[],
	"property_features_elems" text[],
	"building_amenities" text[],
	"building_amenities_elems" text[],
	"price" real,
	"bedrooms" integer,
	"bathrooms" integer,
	"suites" integer,
	"parking_spots" integer,
	"total_area" real,
	"private_area" real,
	"condo_fee" real,
	"property_tax" real,
	"photo_count" integer,
	"video_count" integer,
	"tour_count" integer,
	"available_units" integer,
	"typology_total_units" integer,
	"typology_base_price" real,
	"typology_price_per_sqm" real,
	"listing_score" integer,
	"quality_score" integer,
	"views_count" integer,
	"leads_count" integer,
	"created_at" bigint,
	"updated_at" bigint,
	"published_at" bigint,
	"has_photos" boolean,
	"has_video" boolean,
	"has_virtual_tour" boolean,
	"is_primary_market" boolean,
	"has_available_units" boolean,
	"has_partnership" boolean,
	"is_exclusive" boolean,
	"has_active_exclusivity" boolean,
	"has_integration_error" boolean,
	"has_provider_sync" boolean
);
--> statement-breakpoint
CREATE TABLE "search_texts" (
	"listing_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"doc" jsonb NOT NULL,
	"search_text" text NOT NULL,
	"title" text,
	"title_tok" text[],
	"description" text,
	"description_tok" text[],
	"title_en" text,
	"title_en_tok" text[],
	"description_en" text,
	"description_en_tok" text[],
	"title_es" text,
	"title_es_tok" text[],
	"description_es" text,
	"description_es_tok" text[],
	"typology_id" text,
	"typology_id_tok" text[],
	"building_id" text,
	"building_id_tok" text[],
	"property_id" text,
	"property_id_tok" text[],
	"typology_name" text,
	"typology_name_tok" text[],
	"typology_code" text,
	"typology_code_tok" text[],
	"expected_delivery" text,
	"expected_delivery_tok" text[],
	"features" text[],
	"features_elems" text[]
);
--> statement-breakpoint
CREATE TABLE "search_tsv" (
	"listing_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"tsv" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "network_listings" (
	"network_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	CONSTRAINT "network_listings_network_id_listing_id_pk" PRIMARY KEY("network_id","listing_id")
);
--> statement-breakpoint
CREATE TABLE "network_members" (
	"network_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "network_members_network_id_tenant_id_pk" PRIMARY KEY("network_id","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "networks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"invite_code_hash" text NOT NULL,
	"created_by_tenant_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search_documents" ADD CONSTRAINT "search_documents_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_documents" ADD CONSTRAINT "search_documents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_texts" ADD CONSTRAINT "search_texts_listing_id_search_documents_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."search_documents"("listing_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_texts" ADD CONSTRAINT "search_texts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_tsv" ADD CONSTRAINT "search_tsv_listing_id_search_documents_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."search_documents"("listing_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_listings" ADD CONSTRAINT "network_listings_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_listings" ADD CONSTRAINT "network_listings_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_listings" ADD CONSTRAINT "network_listings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_members" ADD CONSTRAINT "network_members_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_members" ADD CONSTRAINT "network_members_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "networks" ADD CONSTRAINT "networks_created_by_tenant_id_tenants_id_fk" FOREIGN KEY ("created_by_tenant_id") REFERENCES "public"."tenants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_tenant_created_idx" ON "search_documents" USING btree ("tenant_id",created_at desc,"listing_id");--> statement-breakpoint
CREATE INDEX "search_tenant_price_idx" ON "search_documents" USING btree ("tenant_id",price);--> statement-breakpoint
CREATE INDEX "search_tenant_type_price_idx" ON "search_documents" USING btree ("tenant_id",listing_type_tok,price);--> statement-breakpoint
CREATE INDEX "search_tenant_city_idx" ON "search_documents" USING btree ("tenant_id",location_city_tok,price);--> statement-breakpoint
CREATE INDEX "search_tenant_state_idx" ON "search_documents" USING btree ("tenant_id",location_state_tok);--> statement-breakpoint
CREATE INDEX "search_tenant_hood_idx" ON "search_documents" USING btree ("tenant_id",location_neighborhood_tok);--> statement-breakpoint
CREATE INDEX "search_tenant_lat_idx" ON "search_documents" USING btree ("tenant_id",location_latitude);--> statement-breakpoint
CREATE INDEX "search_tenant_published_idx" ON "search_documents" USING btree ("tenant_id",published_at desc);--> statement-breakpoint
CREATE INDEX "search_networks_idx" ON "search_documents" USING gin ("network_ids");--> statement-breakpoint
CREATE INDEX "search_text_trgm_idx" ON "search_texts" USING gin (search_text gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_tsv_tenant_idx" ON "search_tsv" USING gin ("tenant_id","tsv");--> statement-breakpoint
CREATE INDEX "network_listings_tenant_idx" ON "network_listings" USING btree ("tenant_id","listing_id");--> statement-breakpoint
CREATE INDEX "network_members_tenant_idx" ON "network_members" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "networks_invite_key" ON "networks" USING btree ("invite_code_hash");