import { z } from 'zod';

/**
 * Settings the built web app reads from the server when it starts, so a carrier can change them by
 * restarting the server instead of rebuilding the app (`GET /api/v1/web-config`, public).
 */
// Marked pure so that pages which never ask for it (the login page) do not carry it.
export const webConfigSchema = /* @__PURE__ */ z.object({
  /** MapLibre style of the map's "Streets" base map (MAP_STYLE_URL). */
  mapStyleUrl: /* @__PURE__ */ z.url(),
  /** Port of the OsmAnd device protocol (Traccar Client's server URL); null when it is off (the API path still works). */
  osmandPort: /* @__PURE__ */ z.number().int().nullable(),
});
export type WebConfig = z.infer<typeof webConfigSchema>;

/** The keyless OpenFreeMap style used when MAP_STYLE_URL is not set. */
export const DEFAULT_MAP_STYLE_URL = 'https://tiles.openfreemap.org/styles/liberty';

/**
 * `GET /api/v1/startup-progress`: whether a first start is still seeding the demo data, and how far
 * (the dashboard says "Preparing demo data (n %)" meanwhile, since its counts are still growing).
 */
export const startupProgressSchema = /* @__PURE__ */ z.object({
  seeding: /* @__PURE__ */ z.boolean(),
  /** 0-99 while seeding, 100 once done. */
  percent: /* @__PURE__ */ z.number().int().min(0).max(100),
  /** The seeding step under way (e.g. "demo history"), null once done. */
  step: /* @__PURE__ */ z.string().nullable(),
});
export type StartupProgressInfo = z.infer<typeof startupProgressSchema>;
