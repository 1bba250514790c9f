import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function NotificationsPage() {
  return <ComingSoon title="Notifications" description="Your notification history will appear here." />;
}
