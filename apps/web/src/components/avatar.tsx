import { useState, type ReactNode } from 'react';
import { Box } from '@mantine/core';
import { IconAlertTriangle, IconBell, IconBuilding, IconTruck, IconUser } from '@tabler/icons-react';
import classes from './avatar.module.css';

/** Spec section 5: avatar sizes (default md). */
export const AVATAR_SIZES = { xs: 24, sm: 32, md: 40, lg: 48, xl: 56, '2xl': 64, '3xl': 80, huge: 96, enormous: 128 } as const;
export type AvatarSize = keyof typeof AVATAR_SIZES;

const ICONS = { user: IconUser, truck: IconTruck, building: IconBuilding, bell: IconBell, alert: IconAlertTriangle } as const;
export type AvatarIconName = keyof typeof ICONS;

export interface AvatarProps {
  /** Visual variant: `user` (default) or `entity` (vehicles, organizations) with a neutral colour. */
  type?: 'user' | 'entity';
  /** Tooltip/title text; also the alt text when there are no names. */
  title?: string;
  avatarUrl?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** An icon wins over the image and the initial. */
  iconName?: AvatarIconName;
  icon?: ReactNode;
  size?: AvatarSize;
  hasOuterCircle?: boolean;
  /** CSS colour of the outer ring (default: the light surface colour). */
  outerCircleColor?: string;
  /** Small badge at the bottom right (status icon). */
  statusIndicatorIcon?: ReactNode;
  isSquared?: boolean;
}

/** Alt text built from first and last name (spec section 3). */
export function avatarAltText(firstName?: string | null, lastName?: string | null, title?: string): string {
  const name = [firstName, lastName]
    .filter((s) => s && s.trim())
    .join(' ')
    .trim();
  return name ? `${name} avatar` : title ? `${title} avatar` : 'Avatar';
}

/** Spec section 3: icon if given, else the image, else the uppercase first letter of firstName. */
export function Avatar({
  type = 'user',
  title,
  avatarUrl,
  firstName,
  lastName,
  iconName,
  icon,
  size = 'md',
  hasOuterCircle = false,
  outerCircleColor = 'var(--fleet-surface-light)',
  statusIndicatorIcon,
  isSquared = false,
}: AvatarProps) {
  const [broken, setBroken] = useState<string | null>(null);
  const px = AVATAR_SIZES[size];
  const IconCmp = iconName ? ICONS[iconName] : null;
  const initial = (firstName ?? '').trim().charAt(0).toUpperCase();
  const alt = avatarAltText(firstName, lastName, title);
  let content: ReactNode;
  if (icon || IconCmp) content = icon ?? (IconCmp && <IconCmp size={Math.round(px * 0.55)} stroke={1.6} aria-hidden />);
  else if (avatarUrl && broken !== avatarUrl) content = <img src={avatarUrl} alt={alt} className={classes.image} onError={() => setBroken(avatarUrl)} />;
  else content = initial ? <span aria-hidden>{initial}</span> : <IconUser size={Math.round(px * 0.55)} stroke={1.6} aria-hidden />;
  const showsImage = !icon && !IconCmp && avatarUrl && broken !== avatarUrl;
  return (
    <Box
      component="span"
      className={classes.root}
      data-size={size}
      data-type={type}
      data-squared={isSquared || undefined}
      data-outer={hasOuterCircle || undefined}
      title={title}
      role={showsImage ? undefined : 'img'}
      aria-label={showsImage ? undefined : alt}
      style={{ width: px, height: px, fontSize: Math.round(px * 0.42), ['--avatar-ring' as string]: outerCircleColor }}
    >
      {content}
      {statusIndicatorIcon && <span className={classes.status}>{statusIndicatorIcon}</span>}
    </Box>
  );
}
