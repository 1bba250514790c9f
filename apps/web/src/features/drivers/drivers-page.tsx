import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function DriversPage() {
  return <ComingSoon title="All Drivers" description="Drivers, their licences and home terminals will be managed here." />;
}
