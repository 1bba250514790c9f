import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useCan } from '../../lib/registry-api.ts';
import { downloadQualificationPdf, useDriverQualification } from './compliance-api.ts';
import { ComplianceFileState } from './compliance-file.tsx';

/** A driver's qualification file (issue 71, 49 CFR 391.51): the tab of the driver's detail, with the file as one PDF. */
export function QualificationFile({ driverId, driverName }: { driverId: string; driverName: string }) {
  const q = useDriverQualification(driverId);
  const allowed = useCan('COMPLIANCE_LIST');
  const [busy, setBusy] = useState(false);
  if (!allowed)
    return (
      <Text size="sm" c="dimmed">
        Your role does not include compliance.
      </Text>
    );
  return (
    <>
      <Group justify="space-between" mb="sm" gap="xs">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 220px' }}>
          The papers 49 CFR 391.51 asks a carrier to keep for each driver.
        </Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconFileTypePdf size={14} aria-hidden />}
          loading={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await downloadQualificationPdf(driverId, driverName);
            } catch {
              // The API client showed the error.
            } finally {
              setBusy(false);
            }
          }}
        >
          Qualification file (PDF)
        </Button>
      </Group>
      <ComplianceFileState subject={{ type: 'DRIVER', id: driverId, subjectType: 'DRIVER', name: driverName }} query={q} />
    </>
  );
}
