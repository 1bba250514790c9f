import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody } from './plugins/errors.ts';
import { authPlugin } from './modules/auth/auth.plugin.ts';
import { accountsRoutes } from './modules/accounts/index.ts';
import { apiHealthRoutes, probeRoutes } from './modules/health/health.routes.ts';
import { imagesRoutes } from './modules/images/index.ts';
import settingsRoutes from './modules/settings/settings.routes.ts';
import usersRoutes from './modules/users/users.routes.ts';
import organizationsRoutes from './modules/organizations/organizations.routes.ts';
import rolesRoutes from './modules/roles/roles.routes.ts';
import activityLogRoutes from './modules/activity-log/activity-log.routes.ts';
import dataRetentionRoutes from './modules/data-retention/data-retention.routes.ts';
import assetsRoutes from './modules/assets/assets.routes.ts';
import deviceModelsRoutes from './modules/device-models/device-models.routes.ts';
import driversRoutes from './modules/drivers/drivers.routes.ts';
import gatewaysRoutes from './modules/gateways/gateways.routes.ts';
import groupsRoutes from './modules/groups/groups.routes.ts';
import maintenanceRoutes from './modules/maintenance/maintenance.routes.ts';
import { defectInReach, dvirInReach } from './modules/maintenance/index.ts';
import { engineFaultsRoutes } from './modules/engine-faults/index.ts';
import placesRoutes from './modules/places/places.routes.ts';
import { safetyRoutes } from './modules/safety/index.ts';
import { fuelEconomyRoutes } from './modules/fuel-economy/index.ts';
import { loadInReach, loadsRoutes } from './modules/loads/index.ts';
import { customersRoutes } from './modules/customers/index.ts';
import { temperaturesRoutes } from './modules/temperatures/index.ts';
import { messageInReach, messagesRoutes, ownConversation } from './modules/messages/index.ts';
import revenueRoutes from './modules/analytics/revenue.routes.ts';
import registryCsvRoutes from './modules/registry-csv/registry-csv.routes.ts';
import referenceListsRoutes from './modules/settings/reference-lists.routes.ts';
import terminalsRoutes from './modules/settings/terminals.routes.ts';
import ingestRoutes from './modules/positions/ingest.routes.ts';
import historyRoutes from './modules/positions/history.routes.ts';
import liveRoutes from './modules/positions/live.routes.ts';
import webConfigRoutes from './modules/web-config/web-config.routes.ts';
import diagnosticsRoutes from './modules/diagnostics/diagnostics.routes.ts';
import faultsRoutes from './modules/diagnostics/faults.routes.ts';
import hosRoutes from './modules/hos/hos.routes.ts';
import hosDriverRoutes from './modules/hos/hos-driver.routes.ts';
import hosCrossingsRoutes from './modules/hos/hos-crossings.routes.ts';
import hosDeclarationsRoutes from './modules/hos/hos-declarations.routes.ts';
import roadsideCaRoutes from './modules/hos/roadside-ca.routes.ts';
import eldTransferRoutes from './modules/eld-transfer/eld-transfer.routes.ts';
import iftaRoutes from './modules/ifta/ifta.routes.ts';
import fuelTransactionRoutes from './modules/ifta/fuel-transactions.routes.ts';
import fuelEventRoutes from './modules/ifta/fuel-events.routes.ts';
import type { NotificationHub } from './modules/notifications/notifications.hub.ts';
import notificationsRoutes from './modules/notifications/notifications.routes.ts';
import fleetGlanceRoutes from './modules/dashboard/fleet-glance.routes.ts';
import reportsRoutes from './modules/reports/reports.routes.ts';
import reportSubscriptionsRoutes from './modules/reports/report-subscriptions.routes.ts';
import dispatchRoutes from './modules/dispatch/dispatch.routes.ts';
import apiTokensRoutes from './modules/api-tokens/api-tokens.routes.ts';
import webhooksRoutes from './modules/webhooks/webhooks.routes.ts';
import { publicTrackingRoutes, trackingRoutes } from './modules/tracking/index.ts';
import { invoicesRoutes } from './modules/invoices/index.ts';
import { settlementsRoutes } from './modules/settlements/index.ts';
import { cdlFollowsLicence, complianceItemInReach, complianceRoutes } from './modules/compliance/index.ts';
import type { PositionPipeline } from './pipeline/position-pipeline.ts';

export const API_PREFIX = '/api/v1';

/** What routes are built with, beyond the app's decorations: the started pipeline and hubs. */
export interface RouteDeps {
  pipeline: Pick<PositionPipeline, 'ingest' | 'liveHub'>;
  notificationHub: NotificationHub;
}

/**
 * The route list: the API under /api/v1 (the auth plugin first, then every module's routes), the
 * probes, then the web app with the single-page fallback. The one place that hands a module what
 * another module answers (images' owners, a conversation's members for notifications).
 */
export async function registerRoutes(fastify: FastifyInstance, { pipeline, notificationHub }: RouteDeps): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const config = app.config;
  await app.register(
    async (api) => {
      await api.register(authPlugin);
      await api.register(apiHealthRoutes);
      await api.register(webConfigRoutes);
      await api.register(accountsRoutes);
      await api.register(usersRoutes);
      // Who may read an image is what its owner's module answers (decision 0235).
      await api.register(
        imagesRoutes({
          MESSAGE: messageInReach,
          DVIR: dvirInReach,
          DEFECT: defectInReach,
          LOAD: loadInReach,
          COMPLIANCE_ITEM: complianceItemInReach,
        }),
      );
      await api.register(settingsRoutes);
      await api.register(organizationsRoutes);
      await api.register(rolesRoutes);
      await api.register(activityLogRoutes);
      await api.register(dataRetentionRoutes);
      // Fleet registry (issue 5) and groups (issue 6).
      await api.register(referenceListsRoutes);
      await api.register(deviceModelsRoutes);
      await api.register(assetsRoutes);
      // A licence written on the driver form is the qualification file's CDL paper too (decision 0300).
      await api.register(driversRoutes, { licenceWritten: cdlFollowsLicence });
      await api.register(gatewaysRoutes);
      await api.register(groupsRoutes);
      // Home terminals (issue 46).
      await api.register(terminalsRoutes);
      await api.register(registryCsvRoutes);
      await api.register(ingestRoutes(pipeline.ingest));
      await api.register(liveRoutes(pipeline.liveHub));
      await api.register(historyRoutes);
      await api.register(diagnosticsRoutes);
      // The soak's fault hook (issue 43): absent unless FAULT_INJECTION=1.
      if (config.faultInjection) await api.register(faultsRoutes);
      // Hours of service (issue 15).
      await api.register(hosRoutes);
      await api.register(hosDriverRoutes);
      // Border crossings on the log (issue 72).
      await api.register(hosCrossingsRoutes);
      // Cycle switches, adverse conditions and emergencies declared on the log (issue 72).
      await api.register(hosDeclarationsRoutes);
      await api.register(roadsideCaRoutes);
      await api.register(eldTransferRoutes);
      // IFTA fuel tax (issue 17).
      await api.register(iftaRoutes);
      await api.register(fuelTransactionRoutes);
      await api.register(fuelEventRoutes);
      await api.register(maintenanceRoutes);
      await api.register(engineFaultsRoutes);
      await api.register(placesRoutes);
      await api.register(safetyRoutes);
      // Dispatch (issue 33): loads and revenue.
      await api.register(loadsRoutes);
      await api.register(revenueRoutes);
      // Customers (issue 70).
      await api.register(customersRoutes);
      // Reefer temperatures (issue 73).
      await api.register(temperaturesRoutes);
      // The fleet at a glance (issue 18): dashboard, fleet overview, search, fleet performance, notifications.
      await api.register(fleetGlanceRoutes);
      // Fuel economy and idling (issue 68).
      await api.register(fuelEconomyRoutes);
      await api.register(reportsRoutes);
      await api.register(reportSubscriptionsRoutes);
      await api.register(notificationsRoutes(notificationHub, ownConversation));
      // Dispatch (issue 33): legal plans, candidates.
      await api.register(dispatchRoutes);
      // Messages between drivers and dispatch (issue 44).
      await api.register(messagesRoutes);
      // Integrations (issue 48): API tokens and webhooks.
      await api.register(apiTokensRoutes);
      await api.register(webhooksRoutes);
      // Customer tracking (issue 69): links, the public tracking answer, contacts.
      await api.register(trackingRoutes);
      await api.register(publicTrackingRoutes);
      // Invoices of delivered loads (issue 70).
      await api.register(invoicesRoutes);
      // Driver settlements (issue 70).
      await api.register(settlementsRoutes);
      // Drivers' qualification files and units' papers (issue 71).
      await api.register(complianceRoutes);
    },
    { prefix: API_PREFIX },
  );

  await app.register(probeRoutes);

  const indexHtml = config.webDist && fs.existsSync(path.join(config.webDist, 'index.html')) ? path.join(config.webDist, 'index.html') : null;
  if (config.webDist && indexHtml) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      preCompressed: true,
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        // Hashed build assets never change; everything else is revalidated.
        res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if ((request.method === 'GET' || request.method === 'HEAD') && isPagePath(pathname)) {
      // The single-page app answers / and its client routes whatever the Accept header, so a plain
      // `curl http://server/` or a load balancer's probe sees the app, not a 404.
      if (indexHtml) return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
      if (pathname === '/') return reply.type('text/html').send(API_ONLY_PAGE);
    }
    return reply.code(404).send(errorBody(404, 'Not found', `No route ${request.method} ${pathname}`));
  });
}

/** A client route of the web app: not the API or its docs, and not a file (a missing asset stays a 404). */
function isPagePath(pathname: string): boolean {
  if (pathname === '/api' || pathname.startsWith('/api/')) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !last.includes('.');
}

const API_ONLY_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Fleetline</title><p>The Fleetline API is running. ' +
  'The web app is not built here: run <code>npm run build</code>, or see <a href="/api/docs">/api/docs</a>.</p>';
