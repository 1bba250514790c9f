import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function DataRetentionPage() {
  return <ComingSoon title="Data Retention" description="How long positions, logs and other records are kept will be set here." />;
}
