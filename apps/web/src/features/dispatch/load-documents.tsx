import { useState } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { LOAD_DOCUMENT_LABELS } from '@fleet/api-contract/loads';
import type { Load, LoadDocument } from '@fleet/api-contract';
import { formatShortDateTime } from '../../lib/dates.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { openDocumentPdf } from './dispatch-api.ts';
import { stopName, stopNumber } from './dispatch-format.ts';
import classes from './dispatch.module.css';

// The load's papers on the office's load page (issue 70): each with its type, its stop, how many
// pages, who added it and when, its first page as a thumbnail, and its PDF (the pages in the order
// the driver took them).

const pages = (n: number) => `${n} ${n === 1 ? 'page' : 'pages'}`;

export function LoadDocumentsCard({ load }: { load: Load }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid="load-documents">
      <Title order={2} fz="md" mb="sm">
        Documents
      </Title>
      {load.documents.length === 0 ? (
        <Text size="sm" c="dimmed">
          No bill of lading or proof of delivery yet. The driver photographs them on their phone, page by page.
        </Text>
      ) : (
        <Stack gap="sm" component="ul" className={classes.documentList}>
          {load.documents.map((d) => (
            <DocumentRow key={d.id} load={load} doc={d} />
          ))}
        </Stack>
      )}
    </Card>
  );
}

function DocumentRow({ load, doc }: { load: Load; doc: LoadDocument }) {
  const orgId = useEffectiveOrganizationId();
  const [opening, setOpening] = useState(false);
  const stop = load.stops.find((s) => s.id === doc.stopId);
  const label = LOAD_DOCUMENT_LABELS[doc.type];
  const open = async () => {
    setOpening(true);
    try {
      await openDocumentPdf(orgId ?? '', load.id, doc, `${load.number}-${doc.type}.pdf`);
    } finally {
      setOpening(false);
    }
  };
  return (
    <Group component="li" gap="sm" wrap="nowrap" align="flex-start" data-testid="load-document">
      <img className={classes.documentThumb} src={doc.imageUrl} alt="" loading="lazy" />
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Text size="sm" fw={600}>
          {label} · {pages(doc.pageCount)}
        </Text>
        {stop && (
          <Text size="xs" c="dimmed">
            Stop {stopNumber(load.stops, stop)}: {stopName(stop)}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {formatShortDateTime(doc.createdAt)}
          {doc.createdBy ? ` · ${doc.createdBy}` : ''}
        </Text>
        <Group gap="xs" mt={2}>
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconFileTypePdf size={16} aria-hidden />}
            loading={opening}
            onClick={() => void open()}
            aria-label={`Open the ${label.toLowerCase()} (${pages(doc.pageCount)}) as a PDF`}
          >
            Open PDF
          </Button>
        </Group>
      </Stack>
    </Group>
  );
}
