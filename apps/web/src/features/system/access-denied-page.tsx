import { IconLock } from '@tabler/icons-react';
import { StatusPage } from './status-page.tsx';

export default function AccessDeniedPage() {
  return (
    <StatusPage
      icon={<IconLock size={36} />}
      title="Access denied"
      message="Your role does not include the permission this page needs. Ask your organization's administrator if you need it."
    />
  );
}
