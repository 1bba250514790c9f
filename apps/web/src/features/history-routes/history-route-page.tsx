import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function HistoryRoutePage() {
  return <ComingSoon title="History Route" description="Past routes of vehicles, drivers and devices will appear here." />;
}
