-- Issue 66: a refused fix whose time the database cannot hold (year 0000, +010000) failed the
-- refused-fix log's whole write, other organizations' rows with it. Such a time is refused as
-- badTime and kept here as text, never as a time.
ALTER TABLE "refused_fixes" ADD COLUMN "fix_time_text" text;
--> statement-breakpoint
-- Issue 66 (decision 0235): any member read any of the organization's images by id, and attached
-- one they had not uploaded (a driver, another driver's message photo). An image now records who
-- uploaded it (a user or an API token) and what it is attached to; it is read by whoever may read
-- that, and attached to nothing else. The images already attached get their owner here: the
-- earliest of each kind when one was attached twice. Those never attached keep no uploader, and any
-- member may still attach them once. The owners are gathered in a temporary table first: on Citus
-- the images table stays on the coordinator while the others are distributed.
ALTER TABLE "images" ADD COLUMN "uploaded_by" uuid;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "owner_type" text;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "owner_id" uuid;--> statement-breakpoint
CREATE TEMPORARY TABLE "image_owners_0053" ("image_id" uuid NOT NULL, "owner_type" text NOT NULL, "owner_id" uuid NOT NULL, "rank" integer NOT NULL, "at" timestamp with time zone);--> statement-breakpoint
INSERT INTO "image_owners_0053"
  SELECT "profile_image_id", 'USER', "id", 1, NULL::timestamptz FROM "users" WHERE "profile_image_id" IS NOT NULL
  UNION ALL SELECT "logo_image_id", 'ORGANIZATION', "id", 1, NULL::timestamptz FROM "organizations" WHERE "logo_image_id" IS NOT NULL;--> statement-breakpoint
INSERT INTO "image_owners_0053"
  SELECT "signature_image_id", 'DVIR', "id", 2, "inspected_at" FROM "dvirs" WHERE "signature_image_id" IS NOT NULL
  UNION ALL SELECT "review_signature_image_id", 'DVIR', "id", 2, "inspected_at" FROM "dvirs" WHERE "review_signature_image_id" IS NOT NULL
  UNION ALL SELECT e.v::uuid, 'DVIR', d."id", 2, d."inspected_at" FROM "dvirs" d, jsonb_array_elements(d."items") i, jsonb_array_elements_text(CASE WHEN jsonb_typeof(i->'imageIds') = 'array' THEN i->'imageIds' ELSE '[]'::jsonb END) e(v)
    WHERE e.v ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';--> statement-breakpoint
INSERT INTO "image_owners_0053"
  SELECT "certified_by_image_id", 'DEFECT', "id", 3, "certified_at" FROM "vehicle_defects" WHERE "certified_by_image_id" IS NOT NULL;--> statement-breakpoint
INSERT INTO "image_owners_0053"
  SELECT "image_id", 'LOAD', "load_id", 4, "created_at" FROM "load_documents";--> statement-breakpoint
INSERT INTO "image_owners_0053"
  SELECT e.v::uuid, 'MESSAGE', m."id", 5, m."sent_at" FROM "messages" m, jsonb_array_elements_text(CASE WHEN jsonb_typeof(m."image_ids") = 'array' THEN m."image_ids" ELSE '[]'::jsonb END) e(v)
    WHERE e.v ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';--> statement-breakpoint
UPDATE "images" SET "owner_type" = o."owner_type", "owner_id" = o."owner_id"
  FROM (SELECT DISTINCT ON ("image_id") "image_id", "owner_type", "owner_id" FROM "image_owners_0053" ORDER BY "image_id", "rank", "at" NULLS LAST) o
  WHERE "images"."id" = o."image_id";--> statement-breakpoint
DROP TABLE "image_owners_0053";
