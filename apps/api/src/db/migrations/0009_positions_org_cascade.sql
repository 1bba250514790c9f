-- positions: the organization's foreign key becomes a delete trigger on organizations
-- (docs/decisions/0055). The key's per-row check (an SPI lookup of organizations for every
-- inserted fix) was half of the database CPU of an insert on PGlite. Ingest takes the organization
-- from the device's own row, which has its foreign key, so no fix can name a missing organization;
-- what the key still gave, deleting an organization's positions with it, the trigger keeps.
ALTER TABLE positions DROP CONSTRAINT IF EXISTS positions_organization_id_fk;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION positions_delete_with_organization() RETURNS trigger AS $$
BEGIN
  DELETE FROM positions WHERE organization_id = OLD.id;
  RETURN OLD;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER organizations_delete_positions AFTER DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION positions_delete_with_organization();
