-- Issue 66 (decision 0242): a refused send to FMCSA is recorded too, with the kind of failure, so
-- the driver app can say what to do and the office what to configure.
ALTER TABLE "eld_transfers" ADD COLUMN "failure" text;
