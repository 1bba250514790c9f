-- Issue 66: a refused fix whose time the database cannot hold (year 0000, +010000) failed the
-- refused-fix log's whole write, other organizations' rows with it. Such a time is refused as
-- badTime and kept here as text, never as a time.
ALTER TABLE "refused_fixes" ADD COLUMN "fix_time_text" text;
