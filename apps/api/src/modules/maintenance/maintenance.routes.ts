import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import dvirRoutes from './dvirs.routes.ts';
import maintenanceExportRoutes from './maintenance-export.routes.ts';
import maintenanceExtraRoutes from './maintenance-extra.routes.ts';
import workOrderRoutes from './work-orders.routes.ts';

// Inspections and maintenance (issue 31): the driver's reports and their defects, then the office's
// work orders, schedules and the service due.
const maintenanceRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(dvirRoutes);
  await app.register(workOrderRoutes);
  await app.register(maintenanceExtraRoutes);
  await app.register(maintenanceExportRoutes);
};

export default maintenanceRoutes;
