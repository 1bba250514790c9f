import { ComingSoon } from '../../components/coming-soon.tsx';

/** Placeholder until its issue lands: replace this file with the real screen (route in app/routes.ts). */
export default function TrailersPage() {
  return <ComingSoon title="Trailers" description="Trailers and their attachments to vehicles will be managed here." />;
}
