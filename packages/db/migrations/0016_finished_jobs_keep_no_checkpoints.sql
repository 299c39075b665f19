-- A finished job's step checkpoints are never read again. Before this release the embedded runner kept the
-- loaded conversation and the extracted text there, out of reach of payload redaction; they are dropped.
UPDATE "extraction_jobs" SET "step_state" = '{}'::jsonb
 WHERE "status" IN ('completed', 'processed', 'failed', 'dead') AND "step_state" <> '{}'::jsonb;
--> statement-breakpoint
UPDATE "universal_jobs" SET "step_state" = '{}'::jsonb
 WHERE "status" IN ('completed', 'processed', 'failed', 'dead') AND "step_state" <> '{}'::jsonb;
