DROP INDEX "activity_log_org_time_idx";--> statement-breakpoint
DROP INDEX "activity_log_actor_idx";--> statement-breakpoint
CREATE INDEX "activity_log_org_time_idx" ON "activity_log" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_log_actor_idx" ON "activity_log" USING btree ("actor_user_id","created_at","id");