ALTER TABLE "source_events" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- metadata_filter matches this column: the events received before it existed get their add's metadata from the
-- payload while it is still there (a redacted payload has none left to copy).
UPDATE "source_events" SET "metadata" = "payload"->'metadata' WHERE jsonb_typeof("payload"->'metadata') = 'object';
