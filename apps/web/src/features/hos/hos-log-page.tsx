import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function HosLogPage() {
  return <ComingSoon title="Driver log" description="The driver's daily log graph, events and edits will appear here." />;
}
