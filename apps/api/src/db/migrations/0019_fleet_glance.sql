CREATE TABLE "notification_facts" (
	"organization_id" uuid NOT NULL,
	"fact_key" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_facts_organization_id_fact_key_pk" PRIMARY KEY("organization_id","fact_key")
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"kinds" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"fact_key" text NOT NULL,
	"title" text NOT NULL,
	"body" text,
	"link" text,
	"link_label" text,
	"subject" jsonb,
	"in_app" boolean NOT NULL,
	"email" boolean NOT NULL,
	"emailed_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"cleared_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vehicle_daily_stats" (
	"organization_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"day" date NOT NULL,
	"distance_m" double precision DEFAULT 0 NOT NULL,
	"driving_ms" double precision DEFAULT 0 NOT NULL,
	"idle_ms" double precision DEFAULT 0 NOT NULL,
	"max_speed_kmh" real,
	"speeding_events" integer DEFAULT 0 NOT NULL,
	"stops" integer DEFAULT 0 NOT NULL,
	"fixes" integer DEFAULT 0 NOT NULL,
	"last_fix_at" timestamp with time zone,
	"carry" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vehicle_daily_stats_asset_id_day_pk" PRIMARY KEY("asset_id","day")
);
--> statement-breakpoint
ALTER TABLE "notification_facts" ADD CONSTRAINT "notification_facts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_daily_stats" ADD CONSTRAINT "vehicle_daily_stats_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_facts_created_idx" ON "notification_facts" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_fact_uq" ON "notifications" USING btree ("user_id","fact_key");--> statement-breakpoint
CREATE INDEX "notifications_user_time_idx" ON "notifications" USING btree ("user_id","created_at") WHERE "notifications"."in_app" and "notifications"."cleared_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."in_app" and "notifications"."cleared_at" is null and "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_mail_idx" ON "notifications" USING btree ("created_at") WHERE "notifications"."email" and "notifications"."emailed_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_org_idx" ON "notifications" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "vehicle_daily_stats_org_day_idx" ON "vehicle_daily_stats" USING btree ("organization_id","day");