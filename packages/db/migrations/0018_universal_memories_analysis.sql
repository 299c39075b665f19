ALTER TABLE "universal_memories" ADD COLUMN "terms" text;--> statement-breakpoint
ALTER TABLE "universal_memories" ADD COLUMN "vector" text;--> statement-breakpoint
ALTER TABLE "universal_memories" ADD COLUMN "vector_model" text;