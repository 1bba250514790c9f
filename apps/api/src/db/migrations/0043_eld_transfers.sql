-- Issue 45: the ELD's data transfers to FMCSA and the self-checks of the mechanism (decision 0185).
-- eld_transfers: one row a send, kept as FMCSA answered it; keys lead with organization_id (decision
-- 0169) so db:distribute distributes it by the organization. eld_transfer_checks: one row a Ping of
-- the web service; a platform table without an organization, left on the Citus coordinator with
-- job_runs (only the self-check job writes it).
CREATE TABLE "eld_transfers" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "driver_id" uuid NOT NULL,
  "method" text NOT NULL,
  "test" boolean NOT NULL,
  "file_name" text NOT NULL,
  "output_file_comment" text NOT NULL,
  "from_date" date NOT NULL,
  "to_date" date NOT NULL,
  "status" text NOT NULL,
  "submission_id" text,
  "errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "reason" text,
  "created_by_user_id" uuid,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "eld_transfers_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "eld_transfers_method_check" CHECK ("method" in ('WEB_SERVICE', 'EMAIL')),
  CONSTRAINT "eld_transfers_status_check" CHECK ("status" in ('VALID', 'ERROR', 'WARNING', 'INFORMATION', 'NOT_VALIDATED', 'SENT', 'FAILED'))
);--> statement-breakpoint
CREATE INDEX "eld_transfers_list_idx" ON "eld_transfers" USING btree ("organization_id", "created_at");--> statement-breakpoint
CREATE INDEX "eld_transfers_driver_idx" ON "eld_transfers" USING btree ("organization_id", "driver_id", "created_at");--> statement-breakpoint
CREATE TABLE "eld_transfer_checks" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "checked_at" timestamp(3) with time zone NOT NULL,
  "status" text NOT NULL,
  "detail" text,
  "ok" boolean NOT NULL
);--> statement-breakpoint
CREATE INDEX "eld_transfer_checks_at_idx" ON "eld_transfer_checks" USING btree ("checked_at");
