CREATE TABLE "global_agents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"website_url" text DEFAULT '' NOT NULL,
	"logo_url" text DEFAULT '' NOT NULL,
	"default_categories_requested" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"redirect_uri" text DEFAULT '' NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"is_verified" integer DEFAULT 0 NOT NULL,
	"listed" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "grants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"passport_user_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"access_type" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "link_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"external_user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"passport_user_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passport_audit" (
	"id" uuid PRIMARY KEY NOT NULL,
	"passport_user_id" uuid NOT NULL,
	"action" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passport_connections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"passport_user_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"external_user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disconnected_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "passport_reviews" (
	"id" uuid PRIMARY KEY NOT NULL,
	"passport_user_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"claim_a_id" uuid NOT NULL,
	"claim_b_id" uuid NOT NULL,
	"question" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"resolution_memory_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "passport_users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"memory_version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "universal_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"passport_user_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"payload" jsonb,
	"payload_hash" text NOT NULL,
	"idempotency_key" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"locked_by" text,
	"memories_created" integer DEFAULT 0 NOT NULL,
	"error" text,
	"error_summary" text,
	"extraction_metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"step_state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"response" jsonb,
	"observed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "universal_memories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"passport_user_id" uuid NOT NULL,
	"agent_id" uuid,
	"content" text NOT NULL,
	"category" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"importance" real NOT NULL,
	"confidence" real NOT NULL,
	"fingerprint" text NOT NULL,
	"job_id" uuid,
	"message_indices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subject" text,
	"claim_value" text,
	"superseded_by" uuid,
	"access_count" integer DEFAULT 0 NOT NULL,
	"last_accessed" timestamp with time zone,
	"observed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uui_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"passport_user_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"connection_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "global_agents" ADD CONSTRAINT "global_agents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_passport_user_id_passport_users_id_fk" FOREIGN KEY ("passport_user_id") REFERENCES "public"."passport_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_agent_id_global_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."global_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_tokens" ADD CONSTRAINT "link_tokens_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_tokens" ADD CONSTRAINT "link_tokens_agent_id_global_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."global_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_tokens" ADD CONSTRAINT "link_tokens_passport_user_id_passport_users_id_fk" FOREIGN KEY ("passport_user_id") REFERENCES "public"."passport_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passport_connections" ADD CONSTRAINT "passport_connections_passport_user_id_passport_users_id_fk" FOREIGN KEY ("passport_user_id") REFERENCES "public"."passport_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passport_connections" ADD CONSTRAINT "passport_connections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passport_connections" ADD CONSTRAINT "passport_connections_agent_id_global_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."global_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passport_reviews" ADD CONSTRAINT "passport_reviews_passport_user_id_passport_users_id_fk" FOREIGN KEY ("passport_user_id") REFERENCES "public"."passport_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "universal_jobs" ADD CONSTRAINT "universal_jobs_passport_user_id_passport_users_id_fk" FOREIGN KEY ("passport_user_id") REFERENCES "public"."passport_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "universal_memories" ADD CONSTRAINT "universal_memories_passport_user_id_passport_users_id_fk" FOREIGN KEY ("passport_user_id") REFERENCES "public"."passport_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uui_tokens" ADD CONSTRAINT "uui_tokens_passport_user_id_passport_users_id_fk" FOREIGN KEY ("passport_user_id") REFERENCES "public"."passport_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uui_tokens" ADD CONSTRAINT "uui_tokens_agent_id_global_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."global_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uui_tokens" ADD CONSTRAINT "uui_tokens_connection_id_passport_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."passport_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "global_agents_key_uq" ON "global_agents" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "global_agents_tenant_idx" ON "global_agents" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "grants_user_agent_uq" ON "grants" USING btree ("passport_user_id","agent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "link_tokens_hash_uq" ON "link_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "passport_audit_user_idx" ON "passport_audit" USING btree ("passport_user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "passport_connections_uq" ON "passport_connections" USING btree ("passport_user_id","agent_id","external_user_id");--> statement-breakpoint
CREATE INDEX "passport_connections_tenant_idx" ON "passport_connections" USING btree ("tenant_id","external_user_id");--> statement-breakpoint
CREATE INDEX "passport_reviews_user_idx" ON "passport_reviews" USING btree ("passport_user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "passport_users_email_uq" ON "passport_users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "universal_jobs_claim_idx" ON "universal_jobs" USING btree ("status","run_after");--> statement-breakpoint
CREATE UNIQUE INDEX "universal_jobs_idem_uq" ON "universal_jobs" USING btree ("passport_user_id","agent_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "universal_memories_user_idx" ON "universal_memories" USING btree ("passport_user_id","status","category");--> statement-breakpoint
CREATE UNIQUE INDEX "universal_memories_job_fp_uq" ON "universal_memories" USING btree ("job_id","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "uui_tokens_hash_uq" ON "uui_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "uui_tokens_user_idx" ON "uui_tokens" USING btree ("passport_user_id","agent_id");