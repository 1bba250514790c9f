-- Issue 34: the triggers made to work where Citus runs them, on the shards (decision 0169). First, the
-- list and HoS versions no longer come from list_version_seq: on Citus the version triggers run on the workers, where the coordinator's sequence does not
-- exist. A version is now the greater of the row's previous version + 1 and the clock in
-- microseconds: it still only grows per organization and list (per driver for HoS), taken at update
-- time after the row lock (as 0016 says why), and a rolled-back transaction's number is never seen
-- again in practice: the next writer's clock is past it.
-- One row per statement inside a loop: on Citus a statement of the trigger that reads the transition
-- table and writes a distributed table cannot see the transition table ("could not find named
-- tuplestore"). Citus accepts only immutable functions in an upsert's DO UPDATE SET on a distributed table: the
-- clock is read into a variable first, the update is greatest(version + 1, that).
CREATE OR REPLACE FUNCTION fleet_version_clock() RETURNS bigint LANGUAGE sql VOLATILE AS $$
  SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
$$;
--> statement-breakpoint
-- A trigger's NOTIFY, skipped on a Citus worker: a trigger there runs for a shard, nobody listens on a
-- worker, and a worker's part of a two-phase commit (every write to a reference table: users, roles,
-- organizations) refuses a transaction that notified. The coordinator's own copy of a reference
-- table sends it (auth_change); for the distributed tables (drivers' links, HoS) the API sends it on
-- its coordinator connection (decision 0169). On PostgreSQL and PGlite: pg_notify, as before.
CREATE OR REPLACE FUNCTION fleet_notify(channel text, payload text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE coordinator boolean := true;
BEGIN
  IF to_regproc('citus_is_coordinator') IS NOT NULL THEN
    EXECUTE 'SELECT citus_is_coordinator()' INTO coordinator;
  END IF;
  IF coordinator THEN PERFORM pg_notify(channel, payload); END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_list_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE l text; t bigint; org uuid;
BEGIN
  FOREACH l IN ARRAY TG_ARGV LOOP
    t := fleet_version_clock();
    FOR org IN SELECT DISTINCT organization_id FROM changed WHERE organization_id IS NOT NULL LOOP
      INSERT INTO list_versions AS v (organization_id, list, version) VALUES (org, l, t)
      ON CONFLICT (organization_id, list) DO UPDATE SET version = greatest(v.version + 1, t);
    END LOOP;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_driver_groups_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE t bigint := fleet_version_clock(); org uuid;
BEGIN
  FOR org IN SELECT DISTINCT organization_id FROM changed WHERE member_type = 'DRIVER' LOOP
    INSERT INTO list_versions AS v (organization_id, list, version) VALUES (org, 'drivers', t)
    ON CONFLICT (organization_id, list) DO UPDATE SET version = greatest(v.version + 1, t);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_list_version_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE l text; org uuid; t bigint;
BEGIN
  FOREACH l IN ARRAY TG_ARGV LOOP
    FOREACH org IN ARRAY ARRAY[CASE WHEN TG_OP <> 'INSERT' THEN OLD.organization_id END, CASE WHEN TG_OP <> 'DELETE' THEN NEW.organization_id END] LOOP
      CONTINUE WHEN org IS NULL;
      t := fleet_version_clock();
      INSERT INTO list_versions AS v (organization_id, list, version) VALUES (org, l, t)
      ON CONFLICT (organization_id, list) DO UPDATE SET version = greatest(v.version + 1, t);
    END LOOP;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_hos_driver_versions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE t bigint := fleet_version_clock(); c record;
BEGIN
  FOR c IN SELECT DISTINCT driver_id, organization_id FROM changed WHERE driver_id IS NOT NULL ORDER BY driver_id LOOP
    INSERT INTO hos_driver_versions AS v (driver_id, organization_id, version) VALUES (c.driver_id, c.organization_id, t)
    ON CONFLICT (driver_id, organization_id) DO UPDATE SET version = greatest(v.version + 1, t);
  END LOOP;
  PERFORM fleet_notify('hos_changes', o) FROM (SELECT DISTINCT organization_id::text AS o FROM changed WHERE driver_id IS NOT NULL) x;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_hos_driver_version_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r hos_logs; t bigint := fleet_version_clock();
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO hos_driver_versions AS v (driver_id, organization_id, version) VALUES (r.driver_id, r.organization_id, t)
  ON CONFLICT (driver_id, organization_id) DO UPDATE SET version = greatest(v.version + 1, t);
  PERFORM fleet_notify('hos_changes', r.organization_id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_auth_change() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM fleet_notify('auth_change', COALESCE(NEW.id, OLD.id)::text);
  ELSE
    PERFORM fleet_notify('auth_change', '*');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_driver_link_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.user_id IS NOT NULL THEN PERFORM fleet_notify('auth_change', OLD.user_id::text); END IF;
  IF TG_OP <> 'DELETE' AND NEW.user_id IS NOT NULL THEN PERFORM fleet_notify('auth_change', NEW.user_id::text); END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
