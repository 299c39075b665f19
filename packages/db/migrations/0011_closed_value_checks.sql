ALTER TABLE "extraction_jobs" ADD CONSTRAINT "extraction_jobs_status_check" CHECK ("extraction_jobs"."status" IN ('queued', 'running', 'completed', 'processed', 'failed', 'dead'));--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_access_type_check" CHECK ("grants"."access_type" IN ('read_only', 'read_write'));--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_status_check" CHECK ("grants"."status" IN ('active', 'revoked'));--> statement-breakpoint
ALTER TABLE "link_tokens" ADD CONSTRAINT "link_tokens_status_check" CHECK ("link_tokens"."status" IN ('pending', 'approved', 'declined', 'exchanged', 'expired'));--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_status_check" CHECK ("memories"."status" IN ('active', 'inactive', 'archived'));--> statement-breakpoint
ALTER TABLE "otp_codes" ADD CONSTRAINT "otp_codes_audience_check" CHECK ("otp_codes"."audience" IN ('admin', 'passport'));--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_role_check" CHECK ("passages"."role" IN ('user', 'assistant'));--> statement-breakpoint
ALTER TABLE "passport_reviews" ADD CONSTRAINT "passport_reviews_status_check" CHECK ("passport_reviews"."status" IN ('open', 'resolved'));--> statement-breakpoint
ALTER TABLE "pending_candidates" ADD CONSTRAINT "pending_candidates_status_check" CHECK ("pending_candidates"."status" IN ('pending', 'promoted', 'expired'));--> statement-breakpoint
ALTER TABLE "pending_candidates" ADD CONSTRAINT "pending_candidates_reason_check" CHECK ("pending_candidates"."reason" IN ('hedged', 'low_confidence'));--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_status_check" CHECK ("reviews"."status" IN ('open', 'resolved'));--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_audience_check" CHECK ("sessions"."audience" IN ('admin', 'passport'));--> statement-breakpoint
ALTER TABLE "universal_jobs" ADD CONSTRAINT "universal_jobs_status_check" CHECK ("universal_jobs"."status" IN ('queued', 'running', 'completed', 'processed', 'failed', 'dead'));--> statement-breakpoint
ALTER TABLE "universal_memories" ADD CONSTRAINT "universal_memories_status_check" CHECK ("universal_memories"."status" IN ('active', 'inactive', 'archived'));--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check" CHECK ("webhook_deliveries"."status" IN ('pending', 'sending', 'succeeded', 'failed'));--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_status_check" CHECK ("webhook_endpoints"."status" IN ('enabled', 'disabled'));--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_disabled_reason_check" CHECK ("webhook_endpoints"."disabled_reason" IN ('manual', 'gone', 'failing'));