import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function SearchPage() {
  return <ComingSoon title="Search" description="Search across vehicles, drivers, devices and logs will appear here." />;
}
