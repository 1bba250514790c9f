import type { ImportKind, ImportPreview, ImportResult } from '@fleet/api-contract';
import { api } from './api-client.ts';
import { orgPath } from './org-path.ts';
import { downloadCsv } from './registry-api.ts';

// The registry's CSV imports (vehicles, trailers, drivers), shared by their screens' import drawer.
// An import changes registry records: run `importRows` through `useRegistryMutation`.

/** Each row's errors and a sample of the valid rows; nothing is saved (no toast: the drawer shows it). */
export const previewImport = (kind: ImportKind, csv: string) =>
  api<ImportPreview>(orgPath(`/imports/${kind}/preview`), { method: 'POST', body: { csv }, toast: false });

/** Imports the valid rows in one transaction. */
export const importRows = (kind: ImportKind, csv: string) => api<ImportResult>(orgPath(`/imports/${kind}`), { method: 'POST', body: { csv } });

export const downloadImportTemplate = (kind: ImportKind) => downloadCsv(`/imports/${kind}/template`, {}, `${kind}-import-template.csv`);
