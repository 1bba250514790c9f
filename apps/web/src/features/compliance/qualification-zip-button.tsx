import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconFileZip } from '@tabler/icons-react';
import { useCan } from '../../lib/registry-api.ts';
import { downloadQualificationZip } from './compliance-api.ts';

/** Every active driver's qualification file, one PDF each, in one ZIP (issue 71); for those who may read compliance. */
export function QualificationZipButton() {
  const allowed = useCan('COMPLIANCE_LIST');
  const [busy, setBusy] = useState(false);
  if (!allowed) return null;
  return (
    <Button
      variant="default"
      leftSection={<IconFileZip size={16} aria-hidden />}
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadQualificationZip();
        } catch {
          // The API client showed the error.
        } finally {
          setBusy(false);
        }
      }}
    >
      Download all qualification files (ZIP)
    </Button>
  );
}
