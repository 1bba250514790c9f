import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function GroupAssetsPage() {
  return <ComingSoon title="Group assets" description="The vehicles and trailers of this group will be managed here." />;
}
