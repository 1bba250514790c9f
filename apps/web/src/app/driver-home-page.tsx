import { DriverLoads } from '../features/dispatch/driver-loads-card.tsx';
import { DriverMessagesCard } from '../features/messages/driver-messages-card.tsx';
import DriverPage from '../features/hos/driver-page.tsx';
import { DriverInspection } from '../features/maintenance/driver/inspection-card.tsx';
import { DriverSafetyCard } from '../features/safety/driver-safety-card.tsx';
import { DriverComplianceCard } from '../features/compliance/driver-compliance-card.tsx';

// The driver's home (/driver) composed here, since a feature never imports another (docs/style.md §10): the
// HoS feature's screen with the maintenance feature's vehicle inspection card (issue 31) and the
// dispatch feature's loads card (issue 33) and the messages feature's card (issue 44) and the safety
// feature's score card (issue 47) and the compliance feature's warning of papers running out (issue 71).
export default function DriverHomePage() {
  return (
    <DriverPage inspection={DriverInspection} loads={DriverLoads} messages={DriverMessagesCard} safety={DriverSafetyCard} compliance={DriverComplianceCard} />
  );
}
