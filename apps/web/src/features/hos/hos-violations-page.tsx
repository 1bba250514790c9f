import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function HosViolationsPage() {
  return <ComingSoon title="HoS Violations" description="Hours-of-service violations will be listed here." />;
}
