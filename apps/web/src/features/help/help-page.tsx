import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function HelpPage() {
  return <ComingSoon title="Help" description="Guides and support contacts will appear here." />;
}
