import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function FleetPerformancePage() {
  return <ComingSoon title="Fleet Performance" description="Fleet performance analytics will appear here." />;
}
