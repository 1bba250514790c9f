-- Stored search text of the registry lists (docs/decisions/0046): each row keeps the lower-cased
-- concatenation of its searched fields in a generated column, with the trigram index on that
-- column. A search is then `search_text LIKE '%term%'`: the index recheck reads a stored string
-- instead of computing the expression again for every candidate row, and ANALYZE keeps
-- statistics on the column, so the planner knows how many rows a term matches. The columns fill
-- themselves on every insert and update (forms, CSV import, seed). They are not declared in the
-- Drizzle schema on purpose (selects and activity-log snapshots of whole rows stay without them);
-- schema/fleet.ts names them in assetSearchDoc, driverSearchDoc and gatewaySearchDoc.
ALTER TABLE assets ADD COLUMN IF NOT EXISTS search_text text GENERATED ALWAYS AS (lower(unit_number || ' ' || coalesce(vin, '') || ' ' || coalesce(plate, '') || ' ' || coalesce(make, '') || ' ' || coalesce(model, ''))) STORED;
--> statement-breakpoint
ALTER TABLE drivers ADD COLUMN IF NOT EXISTS search_text text GENERATED ALWAYS AS (lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(employee_id, '') || ' ' || coalesce(license_number, '') || ' ' || coalesce(phone, ''))) STORED;
--> statement-breakpoint
ALTER TABLE gateways ADD COLUMN IF NOT EXISTS search_text text GENERATED ALWAYS AS (lower(unique_id || ' ' || name || ' ' || coalesce(phone, '') || ' ' || coalesce(firmware, ''))) STORED;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS assets_search_text_trgm ON assets USING gin (search_text gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS drivers_search_text_trgm ON drivers USING gin (search_text gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS gateways_search_text_trgm ON gateways USING gin (search_text gin_trgm_ops);
--> statement-breakpoint
-- The expression indexes of 0005 served the computed expressions, which nothing queries now.
DROP INDEX IF EXISTS assets_search_trgm;
--> statement-breakpoint
DROP INDEX IF EXISTS drivers_search_trgm;
--> statement-breakpoint
DROP INDEX IF EXISTS gateways_search_trgm;
--> statement-breakpoint
-- Statistics for the new columns now rather than at the next autovacuum (a rewrite does not count as changes).
ANALYZE assets;
--> statement-breakpoint
ANALYZE drivers;
--> statement-breakpoint
ANALYZE gateways;
--> statement-breakpoint
-- The drivers' default order (last name, first name, id; lower-cased as lib/paging sorts them), so a
-- page of a broad search or of the whole list walks it and stops at the page (decision 0047). The
-- assets' unit order has assets_org_unit_uq. drivers_org_idx (plain names) served no sort.
CREATE INDEX IF NOT EXISTS drivers_org_name_sort_idx ON drivers (organization_id, lower(last_name), lower(first_name), id);
