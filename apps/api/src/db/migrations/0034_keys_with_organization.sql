-- Issue 34: every key of an organization's table includes organization_id (docs/deploy.md section 7,
-- decision 0169). Citus enforces a primary key, a unique index or a foreign key between distributed
-- tables only when it contains the distribution column; the same keys hold here on PostgreSQL and
-- PGlite, so one schema serves all three. Foreign keys name (organization_id, x) on both sides (Citus
-- wants the distribution column at the same place in both lists; PostgreSQL matches the key's
-- columns in any order). Nothing changes for the application's data: an id is
-- already unique on its own, a row refers only to rows of its own organization.
--
-- The organization's tables are those with a NOT NULL organization_id (activity_log and images
-- also hold rows of the platform, without one: they stay on the coordinator), less the reference tables (users,
-- roles: read without an organization, one copy on every node) and the coordinator's
-- stream_tickets (looked up by token hash). Generic over the catalog rather than table by table, so
-- a table that a later migration adds is covered by running the same rewrite again (see
-- scripts/db-distribute.ts, which checks it). Constraint and index names are kept: the API maps
-- them to messages (db/sql/constraint-words.ts).
--
-- gateways_unique_id_uq stays global: a device names itself by its id alone (OsmAnd), across
-- organizations. On Citus, db:distribute replaces it with the device-id directory (section 7.2).
CREATE OR REPLACE FUNCTION fleet_org_keys_rewrite() RETURNS void AS $$
DECLARE
  tenant regclass[];
  keep_global text[] := ARRAY['gateways_unique_id_uq'];
  r record;
  fks text[] := '{}';
  cols text;
  refcols text;
  action text;
BEGIN
  SELECT array_agg(c.oid::regclass) INTO tenant
  FROM pg_class c
  WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    AND c.relname NOT IN ('users', 'roles', 'stream_tickets')
    AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND a.attnotnull AND NOT a.attisdropped);

  -- 1. Foreign keys between two organization tables that lack organization_id: kept as text to be
  -- added back with it once the referenced keys have it, then dropped (they depend on those keys).
  FOR r IN
    SELECT k.oid, k.conname, k.conrelid::regclass AS tbl, k.confrelid::regclass AS ref, k.conkey, k.confkey, k.confdeltype
    FROM pg_constraint k
    WHERE k.contype = 'f' AND k.conrelid = ANY (tenant) AND k.confrelid = ANY (tenant)
      AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = k.conrelid AND a.attname = 'organization_id' AND a.attnum = ANY (k.conkey))
  LOOP
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY u.i) INTO cols
    FROM unnest(r.conkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = r.tbl AND a.attnum = u.n;
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY u.i) INTO refcols
    FROM unnest(r.confkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = r.ref AND a.attnum = u.n;
    -- SET NULL names its columns (PostgreSQL 15): nulling organization_id too would break the row.
    action := CASE r.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN format('SET NULL (%s)', cols)
      WHEN 'r' THEN 'RESTRICT' ELSE 'NO ACTION' END;
    fks := fks || format('ALTER TABLE %s ADD CONSTRAINT %I FOREIGN KEY (organization_id, %s) REFERENCES %s (organization_id, %s) ON DELETE %s',
      r.tbl, r.conname, cols, r.ref, refcols, action);
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.tbl, r.conname);
  END LOOP;

  -- 2. Primary keys and unique constraints without organization_id gain it at the end, so every
  -- query that used the key's leading columns (by id alone, by gateway and time) still does.
  FOR r IN
    SELECT k.conname, k.conrelid::regclass AS tbl, k.contype, k.conkey
    FROM pg_constraint k
    WHERE k.contype IN ('p', 'u') AND k.conrelid = ANY (tenant) AND NOT k.conname = ANY (keep_global)
      AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = k.conrelid AND a.attname = 'organization_id' AND a.attnum = ANY (k.conkey))
  LOOP
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY u.i) INTO cols
    FROM unnest(r.conkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = r.tbl AND a.attnum = u.n;
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.tbl, r.conname);
    EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s (%s, organization_id)', r.tbl, r.conname,
      CASE r.contype WHEN 'p' THEN 'PRIMARY KEY' ELSE 'UNIQUE' END, cols);
  END LOOP;

  -- 3. Unique indexes (partial ones included) without organization_id: the same, as indexes.
  FOR r IN
    SELECT i.indexrelid::regclass AS idx, ci.relname AS name, i.indrelid::regclass AS tbl, am.amname,
      (SELECT string_agg(pg_get_indexdef(i.indexrelid, k, false), ', ' ORDER BY k) FROM generate_series(1, i.indnkeyatts) k) AS keys,
      pg_get_expr(i.indpred, i.indrelid) AS pred
    FROM pg_index i JOIN pg_class ci ON ci.oid = i.indexrelid JOIN pg_am am ON am.oid = ci.relam
    WHERE i.indisunique AND i.indrelid = ANY (tenant) AND NOT ci.relname = ANY (keep_global)
      AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = i.indrelid AND a.attname = 'organization_id' AND a.attnum = ANY (i.indkey))
  LOOP
    EXECUTE format('DROP INDEX %s', r.idx);
    EXECUTE format('CREATE UNIQUE INDEX %I ON %s USING %s (%s, organization_id)', r.name, r.tbl, r.amname, r.keys)
      || coalesce(' WHERE ' || r.pred, '');
  END LOOP;

  -- 4. The foreign keys back, with organization_id on both sides.
  FOR i IN 1 .. coalesce(array_length(fks, 1), 0) LOOP
    EXECUTE fks[i];
  END LOOP;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
SELECT fleet_org_keys_rewrite();
--> statement-breakpoint
-- hos_driver_versions' key is now (driver_id, organization_id): the version triggers of 0020 name it.
CREATE OR REPLACE FUNCTION bump_hos_driver_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hos_driver_versions AS v (driver_id, organization_id, version)
  SELECT c.driver_id, c.organization_id, nextval('list_version_seq')
  FROM (SELECT DISTINCT driver_id, organization_id FROM changed WHERE driver_id IS NOT NULL ORDER BY driver_id) c
  ON CONFLICT (driver_id, organization_id) DO UPDATE SET version = nextval('list_version_seq');
  PERFORM pg_notify('hos_changes', o) FROM (SELECT DISTINCT organization_id::text AS o FROM changed WHERE driver_id IS NOT NULL) x;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_hos_driver_version_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r hos_logs;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO hos_driver_versions (driver_id, organization_id, version) VALUES (r.driver_id, r.organization_id, nextval('list_version_seq'))
  ON CONFLICT (driver_id, organization_id) DO UPDATE SET version = nextval('list_version_seq');
  PERFORM pg_notify('hos_changes', r.organization_id::text);
  RETURN NULL;
END $$;
