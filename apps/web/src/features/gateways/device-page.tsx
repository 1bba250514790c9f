import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function DevicePage() {
  return <ComingSoon title="Device" description="The device's details, pairing and last positions will appear here." />;
}
