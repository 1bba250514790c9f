import { useState } from 'react';
import { ActionIcon, Button, Menu, type ButtonProps } from '@mantine/core';
import { IconDownload, IconFileTypeCsv, IconFileTypePdf } from '@tabler/icons-react';

/**
 * A CSV-or-PDF download menu: `download` fetches and saves the file in that format (the API client
 * shows its error toast). `compact` shows an icon button (table rows).
 */
export function DownloadMenu({
  label,
  download,
  compact = false,
  size,
  position = 'bottom-end',
}: {
  label: string;
  download: (format: 'csv' | 'pdf') => Promise<unknown>;
  compact?: boolean;
  size?: ButtonProps['size'];
  position?: 'bottom-end' | 'bottom-start';
}) {
  const [busy, setBusy] = useState(false);
  const run = async (format: 'csv' | 'pdf') => {
    setBusy(true);
    try {
      await download(format);
    } catch {
      // The API client showed the error toast.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Menu position={position} withinPortal>
      <Menu.Target>
        {compact ? (
          <ActionIcon variant="subtle" aria-label={`Export: ${label}`} loading={busy}>
            <IconDownload size={16} />
          </ActionIcon>
        ) : (
          <Button variant="default" size={size} leftSection={<IconDownload size={size === 'xs' ? 14 : 16} />} loading={busy}>
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
