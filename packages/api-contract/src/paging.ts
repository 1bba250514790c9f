import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 500;

/** `?page=0&size=15&sort=field,asc&search=…` shared by every list endpoint. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  sort: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]*(,(asc|desc))?$/i, 'sort must look like field,asc or field,desc')
    .optional(),
  search: z.string().trim().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** The one page object every list in the product answers with. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    page: z.number().int(),
    size: z.number().int(),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
  });
}
export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

export function parseSort(sort: string | undefined): { field: string; dir: 'asc' | 'desc' } | null {
  if (!sort) return null;
  const [field, dir] = sort.split(',');
  return { field: field ?? '', dir: dir?.toLowerCase() === 'desc' ? 'desc' : 'asc' };
}
