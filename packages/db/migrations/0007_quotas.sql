CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenant_usage" (
	"tenant_id" uuid NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"add_calls" integer DEFAULT 0 NOT NULL,
	"retrieve_calls" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenant_usage_tenant_id_period_start_pk" PRIMARY KEY("tenant_id","period_start")
);
--> statement-breakpoint
CREATE TABLE "tenant_usage_daily" (
	"tenant_id" uuid NOT NULL,
	"day" text NOT NULL,
	"add_calls" integer DEFAULT 0 NOT NULL,
	"retrieve_calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tenant_usage_daily_tenant_id_day_pk" PRIMARY KEY("tenant_id","day")
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "plan" text DEFAULT 'unlimited' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "plan_anchor" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "plan_overrides" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "quota_mode" text DEFAULT 'FULL' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_usage" ADD CONSTRAINT "tenant_usage_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_usage_daily" ADD CONSTRAINT "tenant_usage_daily_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "extraction_jobs_finished_idx" ON "extraction_jobs" USING btree ("finished_at");