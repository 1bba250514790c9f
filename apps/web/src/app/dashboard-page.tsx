import DashboardPage from '../features/dashboard/dashboard-page.tsx';
import { DashboardSafetyCard } from '../features/safety/dashboard-safety-card.tsx';
import { DashboardComplianceTile } from '../features/compliance/dashboard-compliance-tile.tsx';

// The dashboard (/dashboard) composed here, since a feature never imports another (docs/style.md §10): the
// dashboard feature's page with the safety feature's card (issue 47: the fleet's score and the drivers
// most in need of coaching), shown to users who may see safety, and the compliance feature's tile (issue 71).
export default function DashboardRoute() {
  return <DashboardPage safety={DashboardSafetyCard} compliance={DashboardComplianceTile} />;
}
