import { useState } from 'react';
import { ActionIcon, Button, Menu } from '@mantine/core';
import { IconDownload, IconFileTypeCsv, IconFileTypePdf } from '@tabler/icons-react';
import type { QueryValue } from '../../lib/query-string.ts';
import { downloadExport } from './ifta-api.ts';

/**
 * CSV or PDF of the return or of the distance records (same query as the screen).
 * `compact` shows an icon button (table rows).
 */
export function ExportMenu({ what, query, name, label, compact = false }: { what: 'report' | 'distance-records'; query: Record<string, QueryValue>; name: string; label: string; compact?: boolean }) {
  const [busy, setBusy] = useState(false);
  const run = async (format: 'csv' | 'pdf') => {
    setBusy(true);
    try {
      await downloadExport(what, { ...query, format }, `${name}.${format}`);
    } catch {
      // The API client showed the error toast.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {compact ? (
          <ActionIcon variant="subtle" aria-label={`Export: ${label}`} loading={busy}>
            <IconDownload size={16} />
          </ActionIcon>
        ) : (
          <Button variant="default" leftSection={<IconDownload size={16} />} loading={busy}>
            {label}
          </Button>
        )}
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconFileTypeCsv size={16} />} onClick={() => void run('csv')}>
          CSV
        </Menu.Item>
        <Menu.Item leftSection={<IconFileTypePdf size={16} />} onClick={() => void run('pdf')}>
          PDF
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
