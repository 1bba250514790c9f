import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Driver vehicle inspection reports and their defects (issue 31, decision 0158).
const dvirRoutes: FastifyPluginAsyncZod = async () => {};

export default dvirRoutes;
