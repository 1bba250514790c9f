-- Issue 70: driver settlements (decision 0294).
-- driver_pay_profiles: a driver's pay rates (per loaded and empty mile in mills, a share of line haul
-- in basis points, flat per load, per extra stop, hourly for on-duty time, detention, a team share).
-- pay_adjustments: deductions and reimbursements, on every settlement or once (applied_settlement_id
-- names the settlement that took a one-time one).
-- settlements, settlement_lines: a driver's statement for a span of days, its lines in order, each
-- saying where its figure came from. settlement_loads: the loads it pays; the partial unique index
-- settles a load once per driver while the settlement stands (voiding releases them, rows kept).
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
CREATE TABLE "driver_pay_profiles" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "driver_id" uuid NOT NULL,
  "loaded_mile_mills" integer DEFAULT 0 NOT NULL,
  "empty_mile_mills" integer DEFAULT 0 NOT NULL,
  "line_haul_bp" integer DEFAULT 0 NOT NULL,
  "flat_per_load_cents" integer DEFAULT 0 NOT NULL,
  "extra_stop_cents" integer DEFAULT 0 NOT NULL,
  "hourly_cents" integer DEFAULT 0 NOT NULL,
  "hourly_basis" text DEFAULT 'ON_DUTY_NOT_DRIVING' NOT NULL,
  "detention_cents_per_hour" integer DEFAULT 0 NOT NULL,
  "detention_free_minutes" integer DEFAULT 120 NOT NULL,
  "team_share_percent" integer DEFAULT 50 NOT NULL,
  "notes" text,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_by" text,
  CONSTRAINT "driver_pay_profiles_pkey" PRIMARY KEY ("organization_id", "driver_id"),
  CONSTRAINT "driver_pay_profiles_basis_check" CHECK ("hourly_basis" in ('ON_DUTY_NOT_DRIVING', 'ALL_ON_DUTY')),
  CONSTRAINT "driver_pay_profiles_share_check" CHECK ("team_share_percent" between 1 and 100)
);--> statement-breakpoint
CREATE TABLE "pay_adjustments" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "driver_id" uuid NOT NULL,
  "type" text NOT NULL,
  "category" text NOT NULL,
  "description" text NOT NULL,
  "amount_cents" integer NOT NULL,
  "recurrence" text NOT NULL,
  "starts_on" date NOT NULL,
  "ends_on" date,
  "applied_settlement_id" uuid,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "created_by" text,
  "removed_at" timestamp(3) with time zone,
  CONSTRAINT "pay_adjustments_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "pay_adjustments_type_check" CHECK ("type" in ('DEDUCTION', 'REIMBURSEMENT')),
  CONSTRAINT "pay_adjustments_recurrence_check" CHECK ("recurrence" in ('EACH_SETTLEMENT', 'ONCE')),
  CONSTRAINT "pay_adjustments_amount_check" CHECK ("amount_cents" > 0)
);--> statement-breakpoint
CREATE INDEX "pay_adjustments_driver_idx" ON "pay_adjustments" USING btree ("organization_id", "driver_id");--> statement-breakpoint
CREATE TABLE "settlement_counters" (
  "organization_id" uuid PRIMARY KEY NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "last" integer NOT NULL
);--> statement-breakpoint
CREATE TABLE "settlements" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "number" text NOT NULL,
  "driver_id" uuid NOT NULL,
  "driver_name" text NOT NULL,
  "period_from" date NOT NULL,
  "period_to" date NOT NULL,
  "time_zone" text NOT NULL,
  "status" text DEFAULT 'DRAFT' NOT NULL,
  "currency" text DEFAULT 'USD' NOT NULL,
  "rates" jsonb NOT NULL,
  "load_count" integer DEFAULT 0 NOT NULL,
  "loads_cents" integer DEFAULT 0 NOT NULL,
  "detention_cents" integer DEFAULT 0 NOT NULL,
  "hourly_cents" integer DEFAULT 0 NOT NULL,
  "reimbursement_cents" integer DEFAULT 0 NOT NULL,
  "deduction_cents" integer DEFAULT 0 NOT NULL,
  "net_cents" integer DEFAULT 0 NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "created_by" text,
  "approved_at" timestamp(3) with time zone,
  "approved_by" text,
  "paid_at" timestamp(3) with time zone,
  "paid_by" text,
  "payment_reference" text,
  "voided_at" timestamp(3) with time zone,
  "voided_by" text,
  "void_reason" text,
  CONSTRAINT "settlements_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "settlements_status_check" CHECK ("status" in ('DRAFT', 'APPROVED', 'PAID', 'VOID')),
  CONSTRAINT "settlements_period_check" CHECK ("period_to" >= "period_from")
);--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_number_uq" ON "settlements" USING btree ("organization_id", "number");--> statement-breakpoint
CREATE INDEX "settlements_driver_idx" ON "settlements" USING btree ("organization_id", "driver_id", "period_from");--> statement-breakpoint
CREATE INDEX "settlements_status_idx" ON "settlements" USING btree ("organization_id", "status", "created_at");--> statement-breakpoint
CREATE TABLE "settlement_loads" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "settlement_id" uuid NOT NULL,
  "load_id" uuid NOT NULL,
  "driver_id" uuid NOT NULL,
  "load_number" text NOT NULL,
  "customer" text NOT NULL,
  "delivered_at" timestamp(3) with time zone NOT NULL,
  "seat" text NOT NULL,
  "teammate" text,
  "share_percent" integer NOT NULL,
  "loaded_m" double precision,
  "empty_m" double precision,
  "stop_count" integer NOT NULL,
  "amount_cents" integer NOT NULL,
  "released" boolean DEFAULT false NOT NULL,
  CONSTRAINT "settlement_loads_pkey" PRIMARY KEY ("organization_id", "settlement_id", "load_id"),
  CONSTRAINT "settlement_loads_seat_check" CHECK ("seat" in ('LEAD', 'CO_DRIVER'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_loads_once_uq" ON "settlement_loads" USING btree ("organization_id", "driver_id", "load_id") WHERE not "settlement_loads"."released";--> statement-breakpoint
CREATE TABLE "settlement_lines" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "settlement_id" uuid NOT NULL,
  "seq" integer NOT NULL,
  "kind" text NOT NULL,
  "load_id" uuid,
  "load_number" text,
  "stop_seq" integer,
  "log_date" date,
  "adjustment_id" uuid,
  "description" text NOT NULL,
  "source" text NOT NULL,
  "quantity" double precision,
  "unit" text,
  "rate" double precision,
  "base_cents" integer,
  "distance_m" double precision,
  "share_percent" integer,
  "amount_cents" integer NOT NULL,
  CONSTRAINT "settlement_lines_pkey" PRIMARY KEY ("organization_id", "id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_lines_seq_uq" ON "settlement_lines" USING btree ("organization_id", "settlement_id", "seq");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_lines_adjustment_uq" ON "settlement_lines" USING btree ("organization_id", "settlement_id", "adjustment_id") WHERE "settlement_lines"."adjustment_id" is not null;--> statement-breakpoint
-- SETTLEMENT_LIST and SETTLEMENT_UPDATE are new organization codes: the built-in Administrator roles
-- already stored get them as new organizations' do (the code grants them whatever is stored).
UPDATE "roles" SET "permissions" = array_append("permissions", 'SETTLEMENT_LIST') WHERE "system_role" = 'ADMIN' AND NOT ('SETTLEMENT_LIST' = ANY("permissions"));--> statement-breakpoint
UPDATE "roles" SET "permissions" = array_append("permissions", 'SETTLEMENT_UPDATE') WHERE "system_role" = 'ADMIN' AND NOT ('SETTLEMENT_UPDATE' = ANY("permissions"));
