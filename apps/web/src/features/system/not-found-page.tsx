import { IconMapQuestion } from '@tabler/icons-react';
import { StatusPage } from './status-page.tsx';

export default function NotFoundPage() {
  return (
    <StatusPage
      icon={<IconMapQuestion size={36} />}
      title="Page not found"
      message="The address you opened does not exist. Check the link or go back to the home page."
    />
  );
}
