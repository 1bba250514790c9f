import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function GroupsPage() {
  return <ComingSoon title="Groups" description="Groups of users and assets will be managed here." />;
}
