-- Issue 30: engine power-up and shut-down records (type 6) of a vehicle by time (decision 0155): the
-- engine-events follower finds a vehicle's state before a fix, and the ELD file the power-up an
-- event's accumulated miles and engine hours count from.
CREATE INDEX "hos_events_engine_idx" ON "hos_events" USING btree ("vehicle_id","event_time") WHERE "hos_events"."event_type" = 6;
