-- Trigram search on names, units, VINs (fleet registry) and exclusion constraints on time ranges.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gist;
