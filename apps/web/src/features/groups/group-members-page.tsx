import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function GroupMembersPage() {
  return <ComingSoon title="Group members" description="The members of this group will be managed here." />;
}
