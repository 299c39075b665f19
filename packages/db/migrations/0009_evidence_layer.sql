CREATE TABLE "passages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"source_event_id" uuid NOT NULL,
	"job_id" uuid,
	"agent_id" text,
	"message_index" integer NOT NULL,
	"part" integer DEFAULT 0 NOT NULL,
	"role" text NOT NULL,
	"speaker" text,
	"content" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"terms" text,
	"vector" text,
	"vector_model" text
);
--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "terms" text;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "vector" text;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "vector_model" text;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_user_id_end_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."end_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_source_event_id_source_events_id_fk" FOREIGN KEY ("source_event_id") REFERENCES "public"."source_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "passages_user_idx" ON "passages" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "passages_message_part_uq" ON "passages" USING btree ("source_event_id","message_index","part");