ALTER TABLE "universal_memories" DROP CONSTRAINT "universal_memories_status_check";--> statement-breakpoint
ALTER TABLE "memories" DROP CONSTRAINT "memories_status_check";--> statement-breakpoint
ALTER TABLE "reviews" ALTER COLUMN "claim_a_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "review_before_write" jsonb;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "kind" text DEFAULT 'conflict' NOT NULL;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "universal_memories" ADD CONSTRAINT "universal_memories_status_check" CHECK ("universal_memories"."status" IN ('active', 'inactive', 'archived', 'pending'));--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_status_check" CHECK ("memories"."status" IN ('active', 'inactive', 'archived', 'pending'));--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_kind_check" CHECK ("reviews"."kind" IN ('conflict', 'pending_write'));--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_decision_check" CHECK ("reviews"."decision" IN ('chosen', 'approved', 'edited', 'rejected'));--> statement-breakpoint
-- reviews resolved before review kinds existed were all conflicts, decided by choosing a claim
UPDATE "reviews" SET "decision" = 'chosen' WHERE "status" = 'resolved';
