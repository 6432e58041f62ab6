CREATE TABLE "member_availability" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"timezone" text NOT NULL,
	"weekly" jsonb NOT NULL,
	"exceptions" jsonb NOT NULL,
	"slot_minutes" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "booked_slot" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "member_availability" ADD CONSTRAINT "member_availability_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_availability" ADD CONSTRAINT "member_availability_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "member_availability_member_key" ON "member_availability" USING btree ("tenant_id","member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_booked_slot_key" ON "tasks" USING btree ("tenant_id","assignee_id","due_at") WHERE "tasks"."booked_slot" and "tasks"."status" = 'open';