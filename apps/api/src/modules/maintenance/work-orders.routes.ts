import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Work orders, preventive maintenance schedules and the service due (issue 31, decision 0158).
const workOrderRoutes: FastifyPluginAsyncZod = async () => {};

export default workOrderRoutes;
