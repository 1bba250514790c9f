import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function FleetPage() {
  return <ComingSoon title="Fleet" description="An overview of vehicles, trailers, drivers and devices will appear here." />;
}
