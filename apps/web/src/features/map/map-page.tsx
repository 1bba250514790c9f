import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function MapPage() {
  return <ComingSoon title="Map" description="Live positions of every vehicle will appear here." />;
}
