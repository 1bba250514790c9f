-- Issue 34 (decision 0169, docs/deploy.md section 7.2): the device-id directory. A device names
-- itself by its unique id alone (OsmAnd) or its batch token, across organizations; on Citus the
-- gateways table is distributed by organization and a shard cannot check that an id is unique
-- across organizations, nor can ingest find a device without knowing its organization first. This
-- table, written with the gateway in the same transaction by the API (modules/gateways/device-ids.ts)
-- on every database, holds each device id and token hash once, with the device's organization and
-- id: ingest reads it, then the device's own shard. db:distribute makes it a reference table (a copy
-- on every node). No foreign key to gateways: a reference table cannot refer to a distributed one.
CREATE TABLE "device_ids" (
  "unique_id" text PRIMARY KEY NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "gateway_id" uuid NOT NULL,
  "ingest_token_hash" text
);--> statement-breakpoint
CREATE UNIQUE INDEX "device_ids_token_uq" ON "device_ids" USING btree ("ingest_token_hash");--> statement-breakpoint
CREATE INDEX "device_ids_gateway_idx" ON "device_ids" USING btree ("gateway_id");--> statement-breakpoint
INSERT INTO "device_ids" ("unique_id", "organization_id", "gateway_id", "ingest_token_hash")
SELECT "unique_id", "organization_id", "id", "ingest_token_hash" FROM "gateways";--> statement-breakpoint
-- The key rewrite of 0034 (which db:distribute runs again) leaves the directory's keys global: it
-- is a reference table, read without an organization, like users and roles.
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
    AND c.relname NOT IN ('users', 'roles', 'stream_tickets', 'device_ids')
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
