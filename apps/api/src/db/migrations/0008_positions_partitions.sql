-- positions becomes a table partitioned by month on fix_time (docs/decisions/0050). Drizzle cannot
-- declare PARTITION BY, so the table it generated (empty at this point) is rebuilt with the same
-- columns, key and indexes. The same SQL runs on a PostgreSQL server and on the embedded PGlite.
CREATE TABLE positions_partitioned (LIKE positions INCLUDING DEFAULTS) PARTITION BY RANGE (fix_time);
--> statement-breakpoint
DROP TABLE positions;
--> statement-breakpoint
ALTER TABLE positions_partitioned RENAME TO positions;
--> statement-breakpoint
ALTER TABLE positions ADD CONSTRAINT positions_pkey PRIMARY KEY (gateway_id, fix_time);
--> statement-breakpoint
CREATE INDEX positions_asset_time_idx ON positions (asset_id, fix_time);
--> statement-breakpoint
CREATE INDEX positions_driver_time_idx ON positions (driver_id, fix_time);
--> statement-breakpoint
CREATE INDEX positions_org_time_idx ON positions (organization_id, fix_time);
--> statement-breakpoint
ALTER TABLE positions ADD CONSTRAINT positions_organization_id_fk FOREIGN KEY (organization_id) REFERENCES organizations(id) ON DELETE CASCADE;
--> statement-breakpoint
-- Fixes outside every monthly partition (a tracker's months-old buffer, a clock far off) land
-- here rather than being refused; positions_ensure_partitions moves them when their month is created.
CREATE TABLE positions_default PARTITION OF positions DEFAULT;
--> statement-breakpoint
-- Creates the monthly partitions from `months_back` months before the current month to
-- `months_ahead` after it; idempotent, serialised across API instances by an advisory lock.
-- Returns how many partitions it created. The API calls it at start and twice a day.
CREATE OR REPLACE FUNCTION positions_ensure_partitions(months_back integer, months_ahead integer) RETURNS integer AS $$
DECLARE
  first_month date := (date_trunc('month', now() AT TIME ZONE 'UTC') - make_interval(months => months_back))::date;
  m date;
  part text;
  created integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('positions_ensure_partitions'));
  FOR i IN 0 .. months_back + months_ahead LOOP
    m := (first_month + make_interval(months => i))::date;
    part := 'positions_p' || to_char(m, 'YYYYMM');
    CONTINUE WHEN to_regclass(part) IS NOT NULL;
    -- Rows of that month already in the default partition move into the new one.
    EXECUTE format('CREATE TABLE %I (LIKE positions INCLUDING DEFAULTS)', part);
    EXECUTE format(
      'WITH moved AS (DELETE FROM positions_default WHERE fix_time >= %L::timestamptz AND fix_time < %L::timestamptz RETURNING *) INSERT INTO %I SELECT * FROM moved',
      m::text || ' 00:00:00+00', (m + interval '1 month')::date::text || ' 00:00:00+00', part);
    EXECUTE format('ALTER TABLE positions ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
      part, m::text || ' 00:00:00+00', (m + interval '1 month')::date::text || ' 00:00:00+00');
    created := created + 1;
  END LOOP;
  RETURN created;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
SELECT positions_ensure_partitions(1, 3);
