import HosLogPage from '../features/hos/hos-log-page.tsx';
import { DriverLogMessages } from '../features/messages/message-panels.tsx';

// A driver's log day (/hos/logs/:id) composed here, since a feature never imports another (docs/style.md
// §10): the HoS feature's page with the messages feature's conversation with the driver (issue 44).
export default function HosDriverLogPage() {
  return <HosLogPage messages={DriverLogMessages} />;
}
