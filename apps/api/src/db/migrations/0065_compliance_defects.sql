-- Issue 71: a failed item of an annual inspection (a compliance item of a vehicle or trailer) made a
-- defect of its unit (decision 0305), open until certified like any other. One defect per failed
-- item of a report: the partial unique index answers the second with a conflict (409).
ALTER TABLE "vehicle_defects" ADD COLUMN "compliance_item_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "vehicle_defects_compliance_item_uq" ON "vehicle_defects" USING btree ("organization_id", "compliance_item_id", "label") WHERE "compliance_item_id" is not null;
