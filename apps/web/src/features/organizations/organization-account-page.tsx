import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function OrganizationAccountPage() {
  return <ComingSoon title="Organization account" description="Company details, logo, units and time zone will be edited here." />;
}
