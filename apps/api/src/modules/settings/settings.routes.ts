import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { organizations } from '../../db/schema/index.ts';
import { requireAuth } from '../auth/index.ts';
import { errors } from '../../http/route-schemas.ts';

export const featureFlagSchema = z.object({
  key: z.literal('darkMode'),
  isEnabled: z.boolean(),
  defaultTheme: z.enum(['light', 'dark']),
});

const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/settings', {
    schema: {
      tags: ['settings'],
      summary: "Feature flags of the caller's organization",
      response: { 200: z.object({ featureFlags: z.array(featureFlagSchema) }), ...errors(401) },
    },
    handler: async (req) => {
      const ctx = requireAuth(req);
      // Super administrators have no organization; they always get the dark theme option.
      if (!ctx.orgId) return { featureFlags: [{ key: 'darkMode' as const, isEnabled: true, defaultTheme: 'light' as const }] };
      const rows = await app.db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, ctx.orgId));
      const dark = rows[0]?.settings.darkMode;
      return { featureFlags: [{ key: 'darkMode' as const, isEnabled: dark?.isEnabled ?? false, defaultTheme: dark?.defaultTheme ?? 'light' }] };
    },
  });
};

export default settingsRoutes;
