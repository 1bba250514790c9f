import { useAssetCompliance } from './compliance-api.ts';
import { ComplianceFileState } from './compliance-file.tsx';

/** A vehicle's or trailer's papers (issue 71): registration, IRP cab card, insurance, annual inspection, permits. */
export function AssetCompliance({ assetId, unitNumber }: { assetId: string; unitNumber: string }) {
  const q = useAssetCompliance(assetId);
  const subjectType = q.data?.assetType ?? 'VEHICLE';
  return <ComplianceFileState subject={{ type: 'ASSET', id: assetId, subjectType, name: unitNumber }} query={q} />;
}
