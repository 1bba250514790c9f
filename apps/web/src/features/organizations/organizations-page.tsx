import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function OrganizationsPage() {
  return <ComingSoon title="Organizations" description="Every carrier on this Fleetline installation, with take-control for support, will be listed here." />;
}
