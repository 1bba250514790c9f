import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function RevenuePage() {
  return <ComingSoon title="Revenue" description="Revenue analytics will appear here." />;
}
