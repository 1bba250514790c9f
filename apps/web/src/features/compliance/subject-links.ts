import type { ComplianceSubject } from '@fleet/api-contract';

const ORG = '/settings/organization-settings';

/** Where a driver's or unit's file is: its detail on the registry screen, the driver's opened on the qualification file. */
export function subjectPath(s: Pick<ComplianceSubject, 'type' | 'id'>): string {
  const id = encodeURIComponent(s.id);
  if (s.type === 'DRIVER') return `${ORG}/all-drivers?open=${id}&tab=qualification`;
  return `${ORG}/${s.type === 'VEHICLE' ? 'vehicles' : 'trailers'}?open=${id}`;
}
