import {
  dashboardQuery,
  dashboardSchema,
  fleetOverviewSchema,
  fleetPerformanceQuery,
  fleetPerformanceSchema,
  orgIdParams,
  searchFiltersSchema,
  searchQuery,
  searchResultSchema,
  searchTagsSchema,
} from '@fleet/api-contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orgErrors } from '../../http/route-schemas.ts';
import { requireAuth, scopeOf } from '../auth/index.ts';
import { fleetPerformance } from '../analytics/index.ts';
import { fleetOverview } from '../fleet/index.ts';
import { search, searchFilters, searchTags } from '../search/index.ts';
import { getDashboard } from './dashboard.service.ts';

// Issue 18's read endpoints: dashboard, fleet overview, search and fleet performance. Each is one
// service call; what a caller sees inside them follows their permissions (passed in).
const fleetGlanceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/dashboard/charts', {
    config: { permissions: ['ORG_DASH_READ'], tokens: true },
    schema: {
      tags: ['dashboard'],
      summary:
        'Counters (each with the list it counts), charts over 7/14/30 days and short lists; optionally one group; counters of lists the caller may not open are left out',
      params: orgIdParams,
      querystring: dashboardQuery,
      response: { 200: dashboardSchema, ...orgErrors() },
    },
    handler: (req) => getDashboard(scopeOf(req, req.params.orgId), requireAuth(req), req.query),
  });

  app.get('/organizations/:orgId/fleet/overview', {
    config: { tokens: true },
    schema: {
      tags: ['fleet'],
      summary: 'Vehicles, trailers, drivers and devices by status, and those missing a driver, device or vehicle (each part only with its list permission)',
      params: orgIdParams,
      response: { 200: fleetOverviewSchema, ...orgErrors() },
    },
    handler: (req) => fleetOverview(scopeOf(req, req.params.orgId), requireAuth(req)),
  });

  app.get('/organizations/:orgId/search', {
    config: { tokens: true },
    schema: {
      tags: ['search'],
      summary:
        'Search vehicles (unit, VIN fragment, plate), trailers, drivers, devices, users, groups and log days ("Lopez 2026-06-01"); tags, status and group narrow it',
      params: orgIdParams,
      querystring: searchQuery,
      response: { 200: searchResultSchema, ...orgErrors() },
    },
    handler: (req) => search(scopeOf(req, req.params.orgId), requireAuth(req), req.query),
  });

  app.get('/organizations/:orgId/search/tags', {
    config: { tokens: true },
    schema: {
      tags: ['search'],
      summary: 'The record types search covers, and which the caller may search',
      params: orgIdParams,
      response: { 200: searchTagsSchema, ...orgErrors() },
    },
    handler: (req) => searchTags(requireAuth(req).permissions),
  });

  app.get('/organizations/:orgId/search/filters', {
    config: { tokens: true },
    schema: {
      tags: ['search'],
      summary: 'The filters search takes: record status and the organization groups (groups only with GROUP_LIST)',
      params: orgIdParams,
      response: { 200: searchFiltersSchema, ...orgErrors() },
    },
    handler: (req) => searchFilters(scopeOf(req, req.params.orgId), requireAuth(req)),
  });

  app.get('/organizations/:orgId/analytics/fleet-performance', {
    config: { permissions: ['ANALYTICS_FLEET_PERFORMANCE'], tokens: true },
    schema: {
      tags: ['analytics'],
      summary:
        'Distance, driving and idle hours, utilization, speeds, speeding events, stops and fuel economy per vehicle, per group and per day, from daily aggregates',
      params: orgIdParams,
      querystring: fleetPerformanceQuery,
      response: { 200: fleetPerformanceSchema, ...orgErrors() },
    },
    handler: (req) => fleetPerformance(scopeOf(req, req.params.orgId), req.query),
  });
};

export default fleetGlanceRoutes;
