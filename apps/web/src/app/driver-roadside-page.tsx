import DriverInspectionPage from '../features/hos/driver-inspection-page.tsx';
import { VehicleReports } from '../features/maintenance/driver/vehicle-reports.tsx';

// The roadside inspection view (/driver/inspection) composed here, since a feature never imports
// another (docs/style.md §10): the HoS feature's log days with the vehicle's inspection reports (issue 31).
export default function DriverRoadsidePage() {
  return <DriverInspectionPage reports={VehicleReports} />;
}
