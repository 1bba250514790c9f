-- Trigram indexes for the registry lists' free-text search (unit, VIN, plate, name, licence,
-- unique id). The expressions must stay identical to assetSearchDoc, driverSearchDoc and
-- gatewaySearchDoc in schema/fleet.ts, or the planner will not use them.
CREATE INDEX IF NOT EXISTS assets_search_trgm ON assets USING gin ((lower(unit_number || ' ' || coalesce(vin, '') || ' ' || coalesce(plate, '') || ' ' || coalesce(make, '') || ' ' || coalesce(model, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS drivers_search_trgm ON drivers USING gin ((lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(employee_id, '') || ' ' || coalesce(license_number, '') || ' ' || coalesce(phone, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS gateways_search_trgm ON gateways USING gin ((lower(unique_id || ' ' || name || ' ' || coalesce(phone, '') || ' ' || coalesce(firmware, ''))) gin_trgm_ops);
--> statement-breakpoint
-- The open trailer attachments of a vehicle, and the recent activity of one record (detail views).
CREATE INDEX IF NOT EXISTS trailer_attachments_open_vehicle_idx ON trailer_attachments (vehicle_id) WHERE detached_at IS NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS activity_log_entity_idx ON activity_log (entity_id, created_at DESC);
