-- docs/decisions/0071: no read needs (organization_id, fix_time); the index cost every inserted fix a third B-tree insert.
-- Retention prunes to the old months and filters them by organization.
DROP INDEX "positions_org_time_idx";