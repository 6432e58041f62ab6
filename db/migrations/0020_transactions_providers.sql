CREATE TYPE "public"."contract_status" AS ENUM('pending', 'uploaded', 'signing', 'signed', 'refused', 'cancelled', 'expired');--> statement-breakpoint
CREATE TYPE "public"."payment_method" AS ENUM('boleto', 'invoice');--> statement-breakpoint
CREATE TYPE "public"."payment_status" AS ENUM('pending', 'paid', 'cancelled', 'expired');--> statement-breakpoint
CREATE TYPE "public"."contract_signer_status" AS ENUM('pending', 'signed', 'refused');--> statement-breakpoint
CREATE TYPE "public"."transaction_status" AS ENUM('open', 'closed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."payment_transfer_status" AS ENUM('processing', 'failed', 'done');--> statement-breakpoint
CREATE TYPE "public"."provider_kind" AS ENUM('payment', 'esignature');--> statement-breakpoint
CREATE TABLE "contract_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"uploaded_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "contract_signers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"status" "contract_signer_status" DEFAULT 'pending' NOT NULL,
	"added_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"refused_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"deal_id" uuid NOT NULL,
	"transaction_id" uuid,
	"listing_id" uuid,
	"document_type" text NOT NULL,
	"envelope_key" text NOT NULL,
	"status" "contract_status" DEFAULT 'pending' NOT NULL,
	"signed_document_id" uuid,
	"signed_at" timestamp with time zone,
	"signed_event_at" timestamp with time zone,
	"deadline_at" timestamp with time zone,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transaction_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"method" "payment_method" NOT NULL,
	"provider_id" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"due_date" date NOT NULL,
	"status" "payment_status" DEFAULT 'pending' NOT NULL,
	"transfer_status" "payment_transfer_status",
	"paid_amount" numeric(14, 2),
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"deal_id" uuid NOT NULL,
	"listing_id" uuid,
	"offer_id" uuid,
	"deal_type" "deal_type" NOT NULL,
	"status" "transaction_status" DEFAULT 'open' NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"currency" text DEFAULT 'BRL' NOT NULL,
	"parties" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"notes" text,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"tenant_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"event" text,
	"subject_key" text,
	"body" text NOT NULL,
	"error" text,
	"outcome" text,
	"effects" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "provider_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"kind" "provider_kind" NOT NULL,
	"name" text NOT NULL,
	"path_token" text NOT NULL,
	"secret" text NOT NULL,
	"signature_header" text DEFAULT 'x-signature' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract_documents" ADD CONSTRAINT "contract_documents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_documents" ADD CONSTRAINT "contract_documents_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_signers" ADD CONSTRAINT "contract_signers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_signers" ADD CONSTRAINT "contract_signers_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_signed_document_id_deal_documents_id_fk" FOREIGN KEY ("signed_document_id") REFERENCES "public"."deal_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_created_by_id_members_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_payments" ADD CONSTRAINT "transaction_payments_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_payments" ADD CONSTRAINT "transaction_payments_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_created_by_id_members_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_notifications" ADD CONSTRAINT "provider_notifications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_notifications" ADD CONSTRAINT "provider_notifications_provider_id_provider_settings_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."provider_settings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD CONSTRAINT "provider_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contract_documents_contract_key" ON "contract_documents" USING btree ("contract_id","key");--> statement-breakpoint
CREATE INDEX "contract_documents_tenant_key_idx" ON "contract_documents" USING btree ("tenant_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_signers_contract_key" ON "contract_signers" USING btree ("contract_id","key");--> statement-breakpoint
CREATE INDEX "contracts_tenant_deal_idx" ON "contracts" USING btree ("tenant_id","deal_id");--> statement-breakpoint
CREATE INDEX "contracts_tenant_tx_idx" ON "contracts" USING btree ("tenant_id","transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contracts_tenant_envelope_key" ON "contracts" USING btree ("tenant_id","envelope_key");--> statement-breakpoint
CREATE INDEX "transaction_payments_tenant_tx_idx" ON "transaction_payments" USING btree ("tenant_id","transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transaction_payments_tenant_provider_key" ON "transaction_payments" USING btree ("tenant_id","method","provider_id");--> statement-breakpoint
CREATE INDEX "transactions_tenant_created_idx" ON "transactions" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_tenant_deal_idx" ON "transactions" USING btree ("tenant_id","deal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_tenant_offer_key" ON "transactions" USING btree ("tenant_id","offer_id") WHERE "transactions"."offer_id" is not null;--> statement-breakpoint
CREATE INDEX "provider_notifications_provider_idx" ON "provider_notifications" USING btree ("tenant_id","provider_id","seq");--> statement-breakpoint
CREATE INDEX "provider_notifications_pending_idx" ON "provider_notifications" USING btree ("seq") WHERE status IN ('received', 'processing');--> statement-breakpoint
CREATE INDEX "provider_settings_tenant_idx" ON "provider_settings" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_settings_token_key" ON "provider_settings" USING btree ("path_token");