import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function UsersAndRolesPage() {
  return <ComingSoon title="Users & Roles" description="Team members, invitations and role permissions will be managed here." />;
}
