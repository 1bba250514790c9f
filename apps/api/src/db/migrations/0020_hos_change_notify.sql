-- Drivers' duty-status changes pushed to open screens (decision 0134). The statements that move a
-- driver's HoS version also signal, at commit, the organizations whose drivers changed: every
-- instance LISTENs on hos_changes and tells its open notification streams, so availability, the
-- daily logs and the dashboard refetch within a second instead of at their next minute.
CREATE OR REPLACE FUNCTION bump_hos_driver_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hos_driver_versions AS v (driver_id, organization_id, version)
  SELECT c.driver_id, c.organization_id, nextval('list_version_seq')
  FROM (SELECT DISTINCT driver_id, organization_id FROM changed WHERE driver_id IS NOT NULL ORDER BY driver_id) c
  ON CONFLICT (driver_id) DO UPDATE SET version = nextval('list_version_seq');
  PERFORM pg_notify('hos_changes', o) FROM (SELECT DISTINCT organization_id::text AS o FROM changed WHERE driver_id IS NOT NULL) x;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_hos_driver_version_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r hos_logs;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO hos_driver_versions (driver_id, organization_id, version) VALUES (r.driver_id, r.organization_id, nextval('list_version_seq'))
  ON CONFLICT (driver_id) DO UPDATE SET version = nextval('list_version_seq');
  PERFORM pg_notify('hos_changes', r.organization_id::text);
  RETURN NULL;
END $$;
