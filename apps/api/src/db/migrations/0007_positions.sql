CREATE TABLE "latest_positions" (
	"asset_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"gateway_id" uuid NOT NULL,
	"driver_id" uuid,
	"fix_time" timestamp with time zone NOT NULL,
	"server_time" timestamp with time zone NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"speed" real,
	"course" real,
	"altitude" real,
	"accuracy" real,
	"odometer" double precision,
	"ignition" boolean,
	"last_moving_at" timestamp with time zone,
	"stationary_since" timestamp with time zone,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"organization_id" uuid NOT NULL,
	"gateway_id" uuid NOT NULL,
	"asset_id" uuid,
	"driver_id" uuid,
	"fix_time" timestamp with time zone NOT NULL,
	"server_time" timestamp with time zone DEFAULT now() NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"speed" real,
	"course" real,
	"altitude" real,
	"accuracy" real,
	"odometer" double precision,
	"ignition" boolean,
	"protocol" text NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "positions_pkey" PRIMARY KEY("gateway_id","fix_time")
);
--> statement-breakpoint
ALTER TABLE "latest_positions" ADD CONSTRAINT "latest_positions_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "latest_positions" ADD CONSTRAINT "latest_positions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "latest_positions" ADD CONSTRAINT "latest_positions_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "latest_positions" ADD CONSTRAINT "latest_positions_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "latest_positions_org_idx" ON "latest_positions" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "positions_asset_time_idx" ON "positions" USING btree ("asset_id","fix_time");--> statement-breakpoint
CREATE INDEX "positions_driver_time_idx" ON "positions" USING btree ("driver_id","fix_time");--> statement-breakpoint
CREATE INDEX "positions_org_time_idx" ON "positions" USING btree ("organization_id","fix_time");