import type { ReactNode } from 'react';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconClock, IconMail, IconMapPin, IconNetwork, IconCalendar } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatLocalTime } from '../lib/dates.ts';
import type { User } from '@fleet/api-contract';
import { Avatar, type AvatarProps } from './avatar.tsx';

export interface AvatarProfileCardProps extends Pick<AvatarProps, 'avatarUrl' | 'firstName' | 'lastName'> {
  position?: string | null;
  /** IANA zone for the local time line (12-hour en-US). */
  timeZone?: string | null;
  showLongDate?: boolean;
  email?: string | null;
  date?: string | null;
  ipAddress?: string | null;
  location?: string | null;
  extraInfo?: ReactNode;
  /** Chip on the right, e.g. the role or a duty status. */
  currentStatus?: string | null;
}

function Line({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" c="dimmed">
      {icon}
      <Text size="sm" c="dimmed" truncate>
        {children}
      </Text>
    </Group>
  );
}

/** Spec section 2, avatar profile card. */
export function AvatarProfileCard(p: AvatarProfileCardProps) {
  // The shell's profile drawer and My account, which a driver reads in their language (issue 66).
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!p.timeZone) return;
    const t = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(t);
  }, [p.timeZone]);
  const name = [p.firstName, p.lastName].filter(Boolean).join(' ');
  return (
    <Group align="flex-start" wrap="nowrap" gap="md">
      <Avatar avatarUrl={p.avatarUrl} firstName={p.firstName} lastName={p.lastName} size="xl" hasOuterCircle />
      <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {name || p.email}
        </Text>
        {p.currentStatus && (
          <Badge size="sm" variant="light" style={{ alignSelf: 'flex-start' }}>
            {p.currentStatus}
          </Badge>
        )}
        {p.position && (
          <Text size="sm" c="dimmed">
            {p.position}
          </Text>
        )}
        {p.timeZone && (
          <Line icon={<IconClock size={14} aria-hidden />}>
            {t('shell.localTime', { time: formatLocalTime(p.timeZone, now, p.showLongDate, i18n.language) })}
          </Line>
        )}
        {p.email && <Line icon={<IconMail size={14} aria-hidden />}>{p.email}</Line>}
        {p.date && <Line icon={<IconCalendar size={14} aria-hidden />}>{formatDate(p.date)}</Line>}
        {p.ipAddress && <Line icon={<IconNetwork size={14} aria-hidden />}>{p.ipAddress}</Line>}
        {p.location && <Line icon={<IconMapPin size={14} aria-hidden />}>{p.location}</Line>}
        {p.extraInfo}
      </Stack>
    </Group>
  );
}

/** The fields of a user (the signed-in one, or a profile read from the API) its card shows. */
export type ProfileCardUser = Pick<User, 'firstName' | 'lastName' | 'profilePicture' | 'email' | 'timeZone' | 'position' | 'roleName' | 'role'>;

/** A user's own card: picture, name, role (its name, else its code), position, local time and email. */
export function UserProfileCard({ user }: { user: ProfileCardUser }) {
  return (
    <AvatarProfileCard
      firstName={user.firstName}
      lastName={user.lastName}
      avatarUrl={user.profilePicture}
      email={user.email}
      timeZone={user.timeZone}
      position={user.position}
      currentStatus={user.roleName ?? user.role}
    />
  );
}
