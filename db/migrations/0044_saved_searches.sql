CREATE TABLE "saved_search_cursors" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_search_hits" (
	"saved_search_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"price" numeric(14, 2),
	"reason" text NOT NULL,
	"matched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "saved_search_hits_saved_search_id_listing_id_pk" PRIMARY KEY("saved_search_id","listing_id")
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"channel" text NOT NULL,
	"frequency" text NOT NULL,
	"filters" jsonb NOT NULL,
	"contact_name" text,
	"email" text,
	"phone" text,
	"locale" text DEFAULT 'pt-BR' NOT NULL,
	"link_base" text NOT NULL,
	"visitor_id" text,
	"listing_type" text DEFAULT '' NOT NULL,
	"city_key" text DEFAULT '' NOT NULL,
	"property_type" text DEFAULT '' NOT NULL,
	"min_price" bigint,
	"max_price" bigint,
	"consent_at" timestamp with time zone NOT NULL,
	"consent_source" jsonb NOT NULL,
	"confirmation_sent_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	"last_alert_at" timestamp with time zone,
	"inbound_lead_id" uuid,
	"failures" bigint DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "saved_search_cursors" ADD CONSTRAINT "saved_search_cursors_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_hits" ADD CONSTRAINT "saved_search_hits_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_hits" ADD CONSTRAINT "saved_search_hits_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_hits" ADD CONSTRAINT "saved_search_hits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_search_hits_due_idx" ON "saved_search_hits" USING btree ("matched_at") WHERE sent_at is null;--> statement-breakpoint
CREATE INDEX "saved_searches_candidates_idx" ON "saved_searches" USING btree ("tenant_id","listing_type","city_key","property_type","max_price") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "saved_searches_tenant_created_idx" ON "saved_searches" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "saved_searches_unconfirmed_idx" ON "saved_searches" USING btree ("created_at") WHERE status = 'pending' and confirmation_sent_at is null;