import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  groupAssetParams,
  groupAssetsInputSchema,
  groupDetailSchema,
  groupIdParams,
  groupInputSchema,
  groupListQuery,
  groupMemberParams,
  groupMemberSchema,
  groupMembersInputSchema,
  groupPageSchema,
  orgIdParams,
} from '@fleet/api-contract';
import { scopeOf } from '../auth/index.ts';
import { orgErrors } from '../../http/route-schemas.ts';
import * as svc from './groups.service.ts';

const tags = ['groups'];

const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/organizations/:orgId/groups', {
    config: { permissions: ['GROUP_LIST'], tokens: true },
    schema: {
      tags,
      summary: 'Groups with member and asset counts',
      params: orgIdParams,
      querystring: groupListQuery,
      response: { 200: groupPageSchema, ...orgErrors() },
    },
    handler: (req) => svc.listGroups(scopeOf(req, req.params.orgId), req.query),
  });

  app.post('/organizations/:orgId/groups', {
    config: { permissions: ['GROUP_UPDATE'], tokens: true },
    schema: { tags, summary: 'Create a group', params: orgIdParams, body: groupInputSchema, response: { 201: groupDetailSchema, ...orgErrors(409) } },
    handler: async (req, reply) => reply.code(201).send(await svc.createGroup(scopeOf(req, req.params.orgId), req.body)),
  });

  app.get('/organizations/:orgId/groups/:groupId', {
    config: { permissions: ['GROUP_READ'], tokens: true },
    schema: { tags, summary: 'A group with its members and assets', params: groupIdParams, response: { 200: groupDetailSchema, ...orgErrors() } },
    handler: (req) => svc.getGroup(scopeOf(req, req.params.orgId), req.params.groupId),
  });

  app.put('/organizations/:orgId/groups/:groupId', {
    config: { permissions: ['GROUP_UPDATE'], tokens: true },
    schema: { tags, summary: 'Rename a group', params: groupIdParams, body: groupInputSchema, response: { 200: groupDetailSchema, ...orgErrors(409) } },
    handler: (req) => svc.renameGroup(scopeOf(req, req.params.orgId), req.params.groupId, req.body),
  });

  app.delete('/organizations/:orgId/groups/:groupId', {
    config: { permissions: ['GROUP_UPDATE'], tokens: true },
    schema: { tags, summary: 'Delete a group (members and assets stay)', params: groupIdParams, response: { 204: z.null(), ...orgErrors() } },
    handler: async (req, reply) => {
      await svc.deleteGroup(scopeOf(req, req.params.orgId), req.params.groupId);
      return reply.code(204).send(null);
    },
  });

  app.get('/organizations/:orgId/groups/:groupId/members', {
    config: { permissions: ['GROUP_READ'], tokens: true },
    schema: { tags, summary: 'Users and drivers of the group', params: groupIdParams, response: { 200: z.array(groupMemberSchema), ...orgErrors() } },
    handler: async (req) => (await svc.getGroup(scopeOf(req, req.params.orgId), req.params.groupId)).members,
  });

  app.post('/organizations/:orgId/groups/:groupId/members', {
    config: { permissions: ['GROUP_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Add users and drivers to the group',
      params: groupIdParams,
      body: groupMembersInputSchema,
      response: { 200: groupDetailSchema, ...orgErrors() },
    },
    handler: (req) => svc.addMembers(scopeOf(req, req.params.orgId), req.params.groupId, req.body.members),
  });

  app.delete('/organizations/:orgId/groups/:groupId/members/:memberId', {
    config: { permissions: ['GROUP_UPDATE'], tokens: true },
    schema: { tags, summary: 'Remove a user or driver from the group', params: groupMemberParams, response: { 200: groupDetailSchema, ...orgErrors() } },
    handler: (req) => svc.removeMember(scopeOf(req, req.params.orgId), req.params.groupId, req.params.memberId),
  });

  app.get('/organizations/:orgId/groups/:groupId/assets', {
    config: { permissions: ['GROUP_READ'], tokens: true },
    schema: { tags, summary: 'Vehicles and trailers of the group', params: groupIdParams, response: { 200: groupDetailSchema.shape.assets, ...orgErrors() } },
    handler: async (req) => (await svc.getGroup(scopeOf(req, req.params.orgId), req.params.groupId)).assets,
  });

  app.post('/organizations/:orgId/groups/:groupId/assets', {
    config: { permissions: ['GROUP_UPDATE'], tokens: true },
    schema: {
      tags,
      summary: 'Add vehicles and trailers to the group',
      params: groupIdParams,
      body: groupAssetsInputSchema,
      response: { 200: groupDetailSchema, ...orgErrors() },
    },
    handler: (req) => svc.addAssets(scopeOf(req, req.params.orgId), req.params.groupId, req.body.assetIds),
  });

  app.delete('/organizations/:orgId/groups/:groupId/assets/:assetId', {
    config: { permissions: ['GROUP_UPDATE'], tokens: true },
    schema: { tags, summary: 'Remove a vehicle or trailer from the group', params: groupAssetParams, response: { 200: groupDetailSchema, ...orgErrors() } },
    handler: (req) => svc.removeAsset(scopeOf(req, req.params.orgId), req.params.groupId, req.params.assetId),
  });
};

export default groupsRoutes;
