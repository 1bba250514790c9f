import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function DevicesPage() {
  return <ComingSoon title="Devices" description="GPS and ELD devices and their pairing with vehicles will be managed here." />;
}
