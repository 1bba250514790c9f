CREATE TABLE "ifta_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"vehicle_id" uuid,
	"day" date NOT NULL,
	"jurisdiction" text NOT NULL,
	"kind" text NOT NULL,
	"distance_m" double precision NOT NULL,
	"reason" text NOT NULL,
	"created_by" uuid,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ifta_crossings" (
	"organization_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"day" date NOT NULL,
	"crossed_at" timestamp with time zone NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"odometer_m" double precision,
	"from_jurisdiction" text NOT NULL,
	"to_jurisdiction" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ifta_dirty_days" (
	"vehicle_id" uuid NOT NULL,
	"day" date NOT NULL,
	"organization_id" uuid NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ifta_dirty_days_pkey" PRIMARY KEY("vehicle_id","day")
);
--> statement-breakpoint
CREATE TABLE "ifta_distance_days" (
	"organization_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"day" date NOT NULL,
	"jurisdiction" text NOT NULL,
	"metres" double precision DEFAULT 0 NOT NULL,
	"interpolated_metres" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "ifta_distance_days_pkey" PRIMARY KEY("vehicle_id","day","jurisdiction")
);
--> statement-breakpoint
CREATE TABLE "ifta_distance_months" (
	"organization_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"month" date NOT NULL,
	"jurisdiction" text NOT NULL,
	"metres" double precision DEFAULT 0 NOT NULL,
	"interpolated_metres" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "ifta_distance_months_pkey" PRIMARY KEY("vehicle_id","month","jurisdiction")
);
--> statement-breakpoint
CREATE TABLE "ifta_filings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"quarter" text NOT NULL,
	"version" integer NOT NULL,
	"filed_at" date NOT NULL,
	"filed_by" text,
	"returns" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ifta_flagged_segments" (
	"organization_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"day" date NOT NULL,
	"from_time" timestamp with time zone NOT NULL,
	"to_time" timestamp with time zone NOT NULL,
	"from_lat" double precision NOT NULL,
	"from_lon" double precision NOT NULL,
	"to_lat" double precision NOT NULL,
	"to_lon" double precision NOT NULL,
	"flags" text[] NOT NULL,
	"metres" double precision NOT NULL,
	"jurisdictions" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ifta_fuel_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"purchased_at" timestamp with time zone NOT NULL,
	"jurisdiction" text NOT NULL,
	"fuel_type" text NOT NULL,
	"quantity_milli" bigint NOT NULL,
	"volume_unit" text NOT NULL,
	"price_per_unit_milli" integer,
	"total_cents" bigint,
	"currency" text DEFAULT 'USD' NOT NULL,
	"vendor" text,
	"city" text,
	"receipt_number" text NOT NULL,
	"tax_paid" boolean DEFAULT true NOT NULL,
	"station_lat" double precision,
	"station_lon" double precision,
	"notes" text,
	"source" text DEFAULT 'MANUAL' NOT NULL,
	"location_check" text DEFAULT 'NO_POSITION' NOT NULL,
	"location_distance_m" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ifta_rate_quarters" (
	"quarter" text PRIMARY KEY NOT NULL,
	"source" text,
	"sha256" text,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"imported_by" text
);
--> statement-breakpoint
CREATE TABLE "ifta_tax_rates" (
	"quarter" text NOT NULL,
	"jurisdiction" text NOT NULL,
	"fuel_type" text NOT NULL,
	"kind" text NOT NULL,
	"usd_per_gallon_e4" integer,
	"cad_per_litre_e4" integer,
	CONSTRAINT "ifta_tax_rates_pkey" PRIMARY KEY("quarter","jurisdiction","fuel_type","kind")
);
--> statement-breakpoint
CREATE TABLE "ifta_vehicle_days" (
	"organization_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"day" date NOT NULL,
	"first_fix_at" timestamp with time zone,
	"last_fix_at" timestamp with time zone,
	"odometer_start_m" double precision,
	"odometer_end_m" double precision,
	"metres" double precision DEFAULT 0 NOT NULL,
	"odometer_travel_m" double precision DEFAULT 0 NOT NULL,
	"odometer_metres" double precision DEFAULT 0 NOT NULL,
	"fixes" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ifta_vehicle_days_pkey" PRIMARY KEY("vehicle_id","day")
);
--> statement-breakpoint
CREATE TABLE "ifta_vehicle_months" (
	"organization_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"month" date NOT NULL,
	"metres" double precision DEFAULT 0 NOT NULL,
	"odometer_travel_m" double precision DEFAULT 0 NOT NULL,
	"odometer_metres" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "ifta_vehicle_months_pkey" PRIMARY KEY("vehicle_id","month")
);
--> statement-breakpoint
CREATE TABLE "ifta_vehicle_state" (
	"vehicle_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"fix_time" timestamp with time zone NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"speed" double precision,
	"odometer" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ifta_adjustments" ADD CONSTRAINT "ifta_adjustments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_adjustments" ADD CONSTRAINT "ifta_adjustments_vehicle_id_assets_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_adjustments" ADD CONSTRAINT "ifta_adjustments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_crossings" ADD CONSTRAINT "ifta_crossings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_dirty_days" ADD CONSTRAINT "ifta_dirty_days_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_distance_days" ADD CONSTRAINT "ifta_distance_days_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_distance_months" ADD CONSTRAINT "ifta_distance_months_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_filings" ADD CONSTRAINT "ifta_filings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_flagged_segments" ADD CONSTRAINT "ifta_flagged_segments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_fuel_purchases" ADD CONSTRAINT "ifta_fuel_purchases_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_fuel_purchases" ADD CONSTRAINT "ifta_fuel_purchases_vehicle_id_assets_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_tax_rates" ADD CONSTRAINT "ifta_tax_rates_quarter_ifta_rate_quarters_quarter_fk" FOREIGN KEY ("quarter") REFERENCES "public"."ifta_rate_quarters"("quarter") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_vehicle_days" ADD CONSTRAINT "ifta_vehicle_days_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_vehicle_months" ADD CONSTRAINT "ifta_vehicle_months_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ifta_vehicle_state" ADD CONSTRAINT "ifta_vehicle_state_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ifta_adjustments_org_day_idx" ON "ifta_adjustments" USING btree ("organization_id","day");--> statement-breakpoint
CREATE INDEX "ifta_crossings_vehicle_day_idx" ON "ifta_crossings" USING btree ("vehicle_id","day","crossed_at");--> statement-breakpoint
CREATE INDEX "ifta_crossings_org_day_idx" ON "ifta_crossings" USING btree ("organization_id","day");--> statement-breakpoint
CREATE INDEX "ifta_distance_days_review_idx" ON "ifta_distance_days" USING btree ("organization_id","day") WHERE "ifta_distance_days"."interpolated_metres" > 0 or "ifta_distance_days"."jurisdiction" = 'unknown';--> statement-breakpoint
CREATE INDEX "ifta_distance_months_org_month_idx" ON "ifta_distance_months" USING btree ("organization_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "ifta_filings_org_quarter_version_uq" ON "ifta_filings" USING btree ("organization_id","quarter","version");--> statement-breakpoint
CREATE INDEX "ifta_flagged_segments_vehicle_day_idx" ON "ifta_flagged_segments" USING btree ("vehicle_id","day");--> statement-breakpoint
CREATE INDEX "ifta_flagged_segments_org_day_idx" ON "ifta_flagged_segments" USING btree ("organization_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "ifta_fuel_purchases_receipt_uq" ON "ifta_fuel_purchases" USING btree ("organization_id",lower("receipt_number"));--> statement-breakpoint
CREATE INDEX "ifta_fuel_purchases_org_time_idx" ON "ifta_fuel_purchases" USING btree ("organization_id","purchased_at");--> statement-breakpoint
CREATE INDEX "ifta_fuel_purchases_vehicle_idx" ON "ifta_fuel_purchases" USING btree ("vehicle_id","purchased_at");--> statement-breakpoint
CREATE INDEX "ifta_vehicle_days_org_day_idx" ON "ifta_vehicle_days" USING btree ("organization_id","day");--> statement-breakpoint
CREATE INDEX "ifta_vehicle_months_org_month_idx" ON "ifta_vehicle_months" USING btree ("organization_id","month");