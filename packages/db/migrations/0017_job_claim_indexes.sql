DROP INDEX "universal_jobs_claim_idx";--> statement-breakpoint
DROP INDEX "extraction_jobs_claim_idx";--> statement-breakpoint
CREATE INDEX "universal_jobs_running_user_idx" ON "universal_jobs" USING btree ("passport_user_id") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "extraction_jobs_running_user_idx" ON "extraction_jobs" USING btree ("tenant_id","user_id") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "universal_jobs_claim_idx" ON "universal_jobs" USING btree ("status","run_after","created_at");--> statement-breakpoint
CREATE INDEX "extraction_jobs_claim_idx" ON "extraction_jobs" USING btree ("status","run_after","created_at");