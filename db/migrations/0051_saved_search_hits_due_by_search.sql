DROP INDEX "saved_search_hits_due_idx";--> statement-breakpoint
CREATE INDEX "saved_search_hits_due_idx" ON "saved_search_hits" USING btree ("saved_search_id") WHERE sent_at is null;