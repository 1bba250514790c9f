import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function DeviceModelsPage() {
  return <ComingSoon title="Device Models" description="The catalogue of supported ELD and GPS device models will be managed here." />;
}
