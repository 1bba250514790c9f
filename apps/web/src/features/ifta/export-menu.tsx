import { DownloadMenu } from '../../components/download-menu.tsx';
import type { QueryValue } from '../../lib/query-string.ts';
import { downloadExport } from './ifta-api.ts';

/**
 * CSV or PDF of the return or of the distance records (same query as the screen).
 * `compact` shows an icon button (table rows).
 */
export function ExportMenu({
  what,
  query,
  name,
  label,
  compact = false,
}: {
  what: 'report' | 'distance-records';
  query: Record<string, QueryValue>;
  name: string;
  label: string;
  compact?: boolean;
}) {
  return <DownloadMenu label={label} compact={compact} download={(format) => downloadExport(what, { ...query, format }, `${name}.${format}`)} />;
}
