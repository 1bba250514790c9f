import { z } from 'zod';
import { defineLabels } from './field-words.ts';

defineLabels({ csv: 'CSV file' });

/** The kinds of records a CSV can import. */
export const IMPORT_KINDS = ['vehicles', 'trailers', 'drivers'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** Upload: the CSV text (the web form reads the chosen file). 5,000 rows fit in ~1 MB. */
export const csvImportBodySchema = z.object({
  csv: z
    .string({ error: () => 'CSV file is a required field' })
    .min(1, 'CSV file is a required field')
    .max(8_000_000, 'The file is too large (8 MB at most)'),
});

export const importRowErrorSchema = z.object({
  /** 1-based line number in the file (the header is line 1). */
  line: z.number().int(),
  field: z.string(),
  message: z.string(),
});

export const importPreviewSchema = z.object({
  totalRows: z.number().int(),
  validRows: z.number().int(),
  invalidRows: z.number().int(),
  /** Per-row problems: validation, duplicates inside the file, and records that already exist. */
  errors: z.array(importRowErrorSchema),
  /** The first valid rows for the preview table: `line`, and by column header each value as it will be saved, in that column's unit. */
  sample: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  columns: z.array(z.string()),
  unknownColumns: z.array(z.string()),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importResultSchema = importPreviewSchema.extend({ imported: z.number().int() });
export type ImportResult = z.infer<typeof importResultSchema>;

export const importKindQuery = z.object({ kind: z.enum(IMPORT_KINDS, { error: () => 'kind must be vehicles, trailers or drivers' }) });
