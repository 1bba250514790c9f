-- Issue 69: customer tracking links, a load's contacts and the notices sent to them (decision 0282).
-- share_links: a link that shows one load (or one vehicle for a time box) without a sign-in. Only the
-- SHA-256 of its token is kept; the public read finds it by that hash (token_hash_idx).
-- load_contacts: who hears about a load (shipper, consignee, broker) and which notices; their
-- one-click unsubscribe token is kept as a hash too.
-- load_notices: each notice claimed once by its key (contact, kind, stop, step) before it is sent,
-- so no restart, replay or second instance sends it again.
-- load_stop_eta_marks: the ETA last announced by load.eta_changed per stop.
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
CREATE TABLE "share_links" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "kind" text NOT NULL,
  "load_id" uuid,
  "asset_id" uuid,
  "token_hash" text NOT NULL,
  "label" text,
  "for_notices" boolean DEFAULT false NOT NULL,
  "expires_at" timestamp(3) with time zone NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "created_by" uuid,
  "created_by_token" uuid,
  "revoked_at" timestamp(3) with time zone,
  "last_viewed_at" timestamp(3) with time zone,
  "view_count" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "share_links_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "share_links_kind_check" CHECK ("kind" in ('LOAD', 'VEHICLE')),
  CONSTRAINT "share_links_target_check" CHECK (("kind" = 'LOAD' and "load_id" is not null) or ("kind" = 'VEHICLE' and "asset_id" is not null))
);--> statement-breakpoint
CREATE UNIQUE INDEX "share_links_token_uq" ON "share_links" USING btree ("organization_id", "token_hash");--> statement-breakpoint
CREATE INDEX "share_links_token_hash_idx" ON "share_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "share_links_load_idx" ON "share_links" USING btree ("organization_id", "load_id");--> statement-breakpoint
CREATE INDEX "share_links_asset_idx" ON "share_links" USING btree ("organization_id", "asset_id");--> statement-breakpoint
CREATE TABLE "load_contacts" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "load_id" uuid NOT NULL,
  "position" integer NOT NULL,
  "role" text NOT NULL,
  "name" text NOT NULL,
  "email" text NOT NULL,
  "notices" text[] DEFAULT '{}' NOT NULL,
  "unsubscribe_hash" text NOT NULL,
  "unsubscribed_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "load_contacts_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "load_contacts_role_check" CHECK ("role" in ('SHIPPER', 'CONSIGNEE', 'BROKER'))
);--> statement-breakpoint
CREATE INDEX "load_contacts_load_idx" ON "load_contacts" USING btree ("organization_id", "load_id");--> statement-breakpoint
CREATE INDEX "load_contacts_unsubscribe_idx" ON "load_contacts" USING btree ("unsubscribe_hash");--> statement-breakpoint
CREATE TABLE "load_notices" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "load_id" uuid NOT NULL,
  "contact_id" uuid NOT NULL,
  "kind" text NOT NULL,
  "stop_seq" integer DEFAULT -1 NOT NULL,
  "step" integer DEFAULT 0 NOT NULL,
  "status" text DEFAULT 'SENDING' NOT NULL,
  "claimed_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "sent_at" timestamp(3) with time zone,
  "error" text,
  CONSTRAINT "load_notices_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "load_notices_kind_check" CHECK ("kind" in ('LINK', 'ARRIVING', 'ARRIVED', 'DELIVERED', 'LATE')),
  CONSTRAINT "load_notices_status_check" CHECK ("status" in ('SENDING', 'SENT', 'FAILED'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "load_notices_key_uq" ON "load_notices" USING btree ("organization_id", "contact_id", "kind", "stop_seq", "step");--> statement-breakpoint
CREATE INDEX "load_notices_load_idx" ON "load_notices" USING btree ("organization_id", "load_id");--> statement-breakpoint
CREATE TABLE "load_stop_eta_marks" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "stop_id" uuid NOT NULL,
  "load_id" uuid NOT NULL,
  "eta" timestamp(3) with time zone NOT NULL,
  CONSTRAINT "load_stop_eta_marks_pkey" PRIMARY KEY ("organization_id", "stop_id")
);
