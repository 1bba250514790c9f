import { z } from 'zod';
import { queryNumber } from './numbers.ts';

export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 500;

// C0 and C1 control characters and DEL: none belongs in text a person types to search, and a NUL
// cannot even reach PostgreSQL (it answered a 500). Written as escapes, so the source stays readable.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Search text: trimmed (so a pasted line break at the end is harmless), at most `max` long, no control characters (400 naming `label`). */
export const searchText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((v) => !CONTROL_CHARACTER.test(v), `${label} must not contain control characters`);

/** `?page=0&size=15&sort=field,asc&search=…` shared by every list endpoint. */
export const pageQuerySchema = z.object({
  page: queryNumber(z.number().int().min(0)).default(0),
  size: queryNumber(z.number().int().min(1).max(MAX_PAGE_SIZE)).default(DEFAULT_PAGE_SIZE),
  sort: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]*(,(asc|desc))?$/i, 'sort must look like field,asc or field,desc')
    .optional(),
  search: searchText('search', 200).optional(),
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
