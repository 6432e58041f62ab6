-- No planner statistics on the lead log's payload columns (issue 11): no query filters or joins on
-- them, and sampling raw bodies and JSON made each automatic ANALYZE of a busy intake table cost
-- ~0.7 s of a core (0.17 s without them), long enough to stall the lead webhook's answers.
ALTER TABLE "inbound_leads"
  ALTER COLUMN "raw_body" SET STATISTICS 0,
  ALTER COLUMN "headers" SET STATISTICS 0,
  ALTER COLUMN "lead" SET STATISTICS 0,
  ALTER COLUMN "deal_ids" SET STATISTICS 0,
  ALTER COLUMN "decision" SET STATISTICS 0,
  ALTER COLUMN "error" SET STATISTICS 0;
