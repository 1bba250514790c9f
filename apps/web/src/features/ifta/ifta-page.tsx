import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function IftaPage() {
  return <ComingSoon title="Fuel costs (IFTA)" description="Quarterly IFTA mileage and fuel by jurisdiction will appear here." />;
}
