import { GroupDetailPage } from './group-detail.tsx';

export default function GroupAssetsPage() {
  return <GroupDetailPage tab="assets" />;
}
