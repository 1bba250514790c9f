import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function ActivityLogPage() {
  return <ComingSoon title="Activity Log" description="Who changed what, and when, will be listed here." />;
}
