import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function DashboardPage() {
  return <ComingSoon title="Dashboard" description="Fleet status, HoS compliance and violations at a glance will appear here." />;
}
