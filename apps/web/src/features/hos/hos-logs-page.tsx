import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function HosLogsPage() {
  return <ComingSoon title="HoS Logs" description="Drivers' records of duty status will be listed here." />;
}
