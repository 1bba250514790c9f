import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { routerLink } from '../../components/router-link.tsx';
import { PublicShellFrame } from './public-shell-frame.tsx';

/** The signed-out screens' frame inside the app: the router's location and links. */
export function PublicShell({ children, onFirstUse }: { children: ReactNode; onFirstUse?: () => void }) {
  const { pathname } = useLocation();
  return (
    <PublicShellFrame pathname={pathname} link={routerLink} onFirstUse={onFirstUse}>
      {children}
    </PublicShellFrame>
  );
}
