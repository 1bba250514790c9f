import { IconTools } from '@tabler/icons-react';
import { StatusPage } from './status-page.tsx';

export default function UnderDevelopmentPage() {
  return <StatusPage icon={<IconTools size={36} />} title="Under development" message="This part of Fleetline is being built and will be available soon." />;
}
