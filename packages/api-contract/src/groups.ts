import { z } from 'zod';
import { assetRef, optionalText } from './registry-fields.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { defineLabels } from './field-words.ts';
import { requiredText } from './validation.ts';

defineLabels({ members: 'Members', 'members.type': 'Member type', 'members.id': 'Member id', assetIds: 'Vehicles and trailers' });

export const groupInputSchema = z.object({
  name: requiredText('Name', 100),
  description: optionalText(500),
});
export type GroupInput = z.input<typeof groupInputSchema>;

export const GROUP_MEMBER_TYPES = ['USER', 'DRIVER'] as const;

export const groupSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  memberCount: z.number().int(),
  assetCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

export const groupMemberSchema = z.object({
  type: z.enum(GROUP_MEMBER_TYPES),
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
});
export type GroupMember = z.infer<typeof groupMemberSchema>;

export const groupDetailSchema = groupSchema.extend({
  members: z.array(groupMemberSchema),
  assets: z.array(assetRef),
});
export type GroupDetail = z.infer<typeof groupDetailSchema>;

export const groupPageSchema = pageSchema(groupSchema);
export const groupListQuery = pageQuerySchema;
export const groupIdParams = z.object({ orgId: z.uuid(), groupId: z.uuid('groupId must be a group id') });

export const groupMembersInputSchema = z.object({
  members: z
    .array(z.object({ type: z.enum(GROUP_MEMBER_TYPES, { error: () => 'Member type must be USER or DRIVER' }), id: z.uuid() }))
    .min(1, 'Members must list at least one user or driver')
    .max(1000),
});
export const groupAssetsInputSchema = z.object({
  assetIds: z.array(z.uuid()).min(1, 'Vehicles and trailers must list at least one vehicle or trailer').max(5000),
});
export const groupMemberParams = groupIdParams.extend({ memberId: z.uuid('memberId must be an id') });
export const groupAssetParams = groupIdParams.extend({ assetId: z.uuid('assetId must be an id') });
