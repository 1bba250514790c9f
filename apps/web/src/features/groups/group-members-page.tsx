import { GroupDetailPage } from './group-detail.tsx';

export default function GroupMembersPage() {
  return <GroupDetailPage tab="members" />;
}
