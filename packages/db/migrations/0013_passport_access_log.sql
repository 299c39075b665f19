CREATE TABLE "passport_access_log" (
	"id" uuid PRIMARY KEY NOT NULL,
	"passport_user_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"agent_name" text NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"memories_returned" integer NOT NULL,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "passport_access_log_kind_check" CHECK ("passport_access_log"."kind" IN ('retrieve', 'list')),
	CONSTRAINT "passport_access_log_channel_check" CHECK ("passport_access_log"."channel" IN ('rest', 'mcp'))
);
--> statement-breakpoint
ALTER TABLE "passport_access_log" ADD CONSTRAINT "passport_access_log_passport_user_id_passport_users_id_fk" FOREIGN KEY ("passport_user_id") REFERENCES "public"."passport_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "passport_access_log_user_idx" ON "passport_access_log" USING btree ("passport_user_id","created_at","id");