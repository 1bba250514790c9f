-- Issue 70: papers of several pages from the stop (decision 0287). A load's document keeps its row
-- in load_documents; its kind gains LUMPER (a lumper receipt) and SCALE (a scale ticket), it counts
-- its pages, and load_document_pages holds the pages in the order they were taken. image_id stays
-- as the first page (the thumbnail the office lists). Every document attached before, one photo
-- each, becomes a one-page document. client_id: the phone's Idempotency-Key, so a document sent
-- again from the offline outbox is stored once.
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
ALTER TABLE "load_documents" ADD COLUMN "page_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "load_documents" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "load_documents" ADD CONSTRAINT "load_documents_kind_check" CHECK ("kind" in ('BOL', 'POD', 'LUMPER', 'SCALE', 'OTHER'));--> statement-breakpoint
CREATE UNIQUE INDEX "load_documents_client_uq" ON "load_documents" USING btree ("organization_id", "load_id", "client_id") WHERE "client_id" is not null;--> statement-breakpoint
CREATE TABLE "load_document_pages" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "document_id" uuid NOT NULL,
  "seq" integer NOT NULL,
  "image_id" uuid NOT NULL REFERENCES "images"("id") ON DELETE cascade,
  CONSTRAINT "load_document_pages_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "load_document_pages_document_fk" FOREIGN KEY ("organization_id", "document_id") REFERENCES "load_documents"("organization_id", "id") ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX "load_document_pages_seq_uq" ON "load_document_pages" USING btree ("organization_id", "document_id", "seq");--> statement-breakpoint
INSERT INTO "load_document_pages" ("organization_id", "document_id", "seq", "image_id")
  SELECT "organization_id", "id", 0, "image_id" FROM "load_documents";
