-- Issue 72: the oilfield operations of 49 CFR 395.1(d) as a driver's exemption (decision 0311): the
-- 24-hour restart and well-site waiting time left out of the 14-hour window, on the US property rulesets.
ALTER TABLE "drivers" ADD COLUMN "oilfield" boolean DEFAULT false NOT NULL;
