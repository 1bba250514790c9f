import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function HosAvailabilityPage() {
  return <ComingSoon title="HoS Availability" description="Each driver's remaining drive, shift and cycle time will appear here." />;
}
