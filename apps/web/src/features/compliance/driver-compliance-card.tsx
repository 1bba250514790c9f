import { Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { lazyPart } from '../../components/on-first-use.ts';
import { driverQualificationQuery } from './compliance-keys.ts';

// The driver's home (issue 71): reads the driver's own qualification file and, only when the medical
// certificate or licence runs out within 7 days or has run out, loads the warning (with its words and
// the way to send a renewal). Most days there is nothing to say: the home's first load carries only
// this read (decision 0297's budget), types only from the contract.

const DriverComplianceWarning = lazyPart(() => import('./driver-compliance-warning.tsx').then((m) => ({ default: m.DriverComplianceWarning })));

export function DriverComplianceCard({ orgId, driverId }: { orgId: string; driverId: string }) {
  const q = useQuery({ ...driverQualificationQuery(orgId, driverId), enabled: !!orgId && !!driverId });
  // No warning when the file cannot be read (an older server, no signal on a first visit): the day goes on.
  if (!q.data || q.data.warnings.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <DriverComplianceWarning orgId={orgId} driverId={driverId} qualification={q.data} />
    </Suspense>
  );
}
