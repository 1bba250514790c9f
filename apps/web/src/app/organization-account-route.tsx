import OrganizationAccountPage from '../features/organizations/organization-account-page.tsx';
import { EldTransferCheck } from '../features/hos/eld-transfer/eld-transfer-check.tsx';

// The organization account composed here, since a feature never imports another (docs/style.md §10): the
// organizations feature's page with the HoS feature's ELD data-transfer self-check (issue 45).
export default function OrganizationAccountRoute() {
  return <OrganizationAccountPage eldTransfer={EldTransferCheck} />;
}
