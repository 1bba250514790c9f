import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function VehiclesPage() {
  return <ComingSoon title="Vehicles" description="Vehicles, their devices and assigned drivers will be managed here." />;
}
