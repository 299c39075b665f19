ALTER TABLE "memories" ADD COLUMN "claim_negated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "universal_memories" ADD COLUMN "claim_negated" boolean DEFAULT false NOT NULL;