-- Issue 33: dispatch. Loads, their stops in driving order, their status history and photographed
-- papers (decisions 0165-0168). Money in cents, distances in metres, weights in kilograms.
CREATE TABLE "load_counters" (
  "organization_id" uuid PRIMARY KEY NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loads" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "number" text NOT NULL,
  "customer" text NOT NULL,
  "customer_place_id" uuid REFERENCES "places"("id") ON DELETE set null,
  "bol_number" text,
  "po_number" text,
  "commodity" text,
  "weight_kg" double precision,
  "status" text DEFAULT 'PLANNED' NOT NULL,
  "line_haul_cents" integer DEFAULT 0 NOT NULL,
  "fuel_surcharge_cents" integer DEFAULT 0 NOT NULL,
  "accessorials" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "currency" text DEFAULT 'USD' NOT NULL,
  "driver_id" uuid REFERENCES "drivers"("id") ON DELETE set null,
  "co_driver_id" uuid REFERENCES "drivers"("id") ON DELETE set null,
  "asset_id" uuid REFERENCES "assets"("id") ON DELETE set null,
  "trailer_id" uuid REFERENCES "assets"("id") ON DELETE set null,
  "loaded_m" double precision,
  "at_risk" boolean DEFAULT false NOT NULL,
  "risk_reason" text,
  "risk_notified_at" timestamp with time zone,
  "eta_updated_at" timestamp with time zone,
  "delivered_at" timestamp with time zone,
  "notes" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "loads_status_check" CHECK ("status" IN ('PLANNED', 'ASSIGNED', 'EN_ROUTE', 'AT_STOP', 'DELIVERED', 'CANCELLED'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "loads_org_number_uq" ON "loads" ("organization_id", "number");
--> statement-breakpoint
CREATE INDEX "loads_org_status_idx" ON "loads" ("organization_id", "status");
--> statement-breakpoint
CREATE INDEX "loads_org_driver_idx" ON "loads" ("organization_id", "driver_id");
--> statement-breakpoint
CREATE INDEX "loads_org_delivered_idx" ON "loads" ("organization_id", "delivered_at");
--> statement-breakpoint
CREATE TABLE "load_stops" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "load_id" uuid NOT NULL REFERENCES "loads"("id") ON DELETE cascade,
  "seq" integer NOT NULL,
  "kind" text NOT NULL,
  "place_id" uuid REFERENCES "places"("id") ON DELETE set null,
  "latitude" double precision NOT NULL,
  "longitude" double precision NOT NULL,
  "address" text,
  "window_start" timestamp with time zone NOT NULL,
  "window_end" timestamp with time zone NOT NULL,
  "service_minutes" integer NOT NULL,
  "arrived_at" timestamp with time zone,
  "departed_at" timestamp with time zone,
  "arrival_source" text,
  "departure_source" text,
  "place_visit_id" uuid,
  "eta" timestamp with time zone,
  "window_met" boolean,
  CONSTRAINT "load_stops_kind_check" CHECK ("kind" IN ('PICKUP', 'DELIVERY'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "load_stops_load_seq_uq" ON "load_stops" ("load_id", "seq");
--> statement-breakpoint
CREATE INDEX "load_stops_org_place_idx" ON "load_stops" ("organization_id", "place_id");
--> statement-breakpoint
CREATE TABLE "load_status_events" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "load_id" uuid NOT NULL REFERENCES "loads"("id") ON DELETE cascade,
  "status" text NOT NULL,
  "at" timestamp with time zone DEFAULT now() NOT NULL,
  "user_id" uuid REFERENCES "users"("id") ON DELETE set null,
  "note" text
);
--> statement-breakpoint
CREATE INDEX "load_status_events_load_idx" ON "load_status_events" ("load_id", "at");
--> statement-breakpoint
CREATE TABLE "load_documents" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "load_id" uuid NOT NULL REFERENCES "loads"("id") ON DELETE cascade,
  "stop_id" uuid REFERENCES "load_stops"("id") ON DELETE set null,
  "kind" text NOT NULL,
  "image_id" uuid NOT NULL REFERENCES "images"("id") ON DELETE cascade,
  "uploaded_by" uuid REFERENCES "users"("id") ON DELETE set null,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "load_documents_load_idx" ON "load_documents" ("load_id");
