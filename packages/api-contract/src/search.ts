import { z } from 'zod';
import { queryNumber } from './numbers.ts';
import { CONTROL_CHARACTER } from './paging.ts';
import { RECORD_STATUSES } from './registry-reference.ts';

// One search box over the organization (`GET organizations/{orgId}/search`): vehicles (unit, VIN
// fragments, plate), trailers, drivers, devices, users, groups and drivers' log days. Tags narrow
// it to some record types (`search/tags` lists them with what the caller may open); filters narrow
// by status and group (`search/filters`).

export const SEARCH_TAGS = ['vehicle', 'trailer', 'driver', 'device', 'user', 'group', 'logDay'] as const;
export type SearchTag = (typeof SEARCH_TAGS)[number];

export const SEARCH_MAX_PER_TAG = 20;

const tagList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) =>
    v === undefined
      ? undefined
      : (Array.isArray(v) ? v : [v])
          .flatMap((s) => s.split(','))
          .map((s) => s.trim())
          .filter(Boolean),
  )
  .pipe(z.array(z.enum(SEARCH_TAGS, { error: () => `tags must be among ${SEARCH_TAGS.join(', ')}` })).optional());

export const searchQuery = z.object({
  q: z
    .string({ error: () => 'q is a required field' })
    .trim()
    .min(1, 'q is a required field')
    .max(100, 'q must be at most 100 characters')
    .refine((v) => !CONTROL_CHARACTER.test(v), 'q must not contain control characters'),
  tags: tagList,
  status: z.enum(RECORD_STATUSES, { error: () => 'status must be ACTIVE or INACTIVE' }).optional(),
  group: z.uuid('group must be a group id').optional(),
  /** Most results per tag (default 5). */
  limit: queryNumber(z.number().int().min(1, 'limit must be at least 1').max(SEARCH_MAX_PER_TAG, `limit must be at most ${SEARCH_MAX_PER_TAG}`)).default(5),
});
export type SearchQuery = z.input<typeof searchQuery>;

export const searchHitSchema = z.object({
  tag: z.enum(SEARCH_TAGS),
  id: z.string(),
  title: z.string(),
  /** A second line: VIN and plate, licence, device id, e-mail… */
  subtitle: z.string().nullable(),
  status: z.string().nullable(),
  /** Web path that opens the record. */
  link: z.string(),
  /** Why the record matched: the field holding the text and that field's value ("unit number", "117"). */
  match: z.object({ field: z.string(), value: z.string() }).nullable(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchResultSchema = z.object({
  q: z.string(),
  groups: z.array(z.object({ tag: z.enum(SEARCH_TAGS), label: z.string(), total: z.number().int(), hits: z.array(searchHitSchema) })),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchTagsSchema = z.object({
  tags: z.array(z.object({ tag: z.enum(SEARCH_TAGS), label: z.string(), allowed: z.boolean() })),
});
export type SearchTags = z.infer<typeof searchTagsSchema>;

export const searchFiltersSchema = z.object({
  statuses: z.array(z.object({ value: z.enum(RECORD_STATUSES), label: z.string() })),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type SearchFilters = z.infer<typeof searchFiltersSchema>;

export const SEARCH_TAG_LABELS: Record<SearchTag, string> = {
  vehicle: 'Vehicles',
  trailer: 'Trailers',
  driver: 'Drivers',
  device: 'Devices',
  user: 'Users',
  group: 'Groups',
  logDay: 'Log days',
};
