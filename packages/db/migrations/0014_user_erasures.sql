CREATE TABLE "user_erasures" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"external_user_id_sha256" text NOT NULL,
	"counts" jsonb NOT NULL,
	"sha256" text NOT NULL,
	"actor" text NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_erasures" ADD CONSTRAINT "user_erasures_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_erasures_user_idx" ON "user_erasures" USING btree ("tenant_id","external_user_id_sha256","erased_at");