import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigation } from 'react-router';
import { useStore } from '../../lib/create-store.ts';
import { busyStore } from '../../lib/session.ts';
import { ACCESS_DENIED_PATH, UNDER_DEVELOPMENT_PATH } from '../guard.ts';
import classes from './global-loading-bar.module.css';

/**
 * Spec section 2: an indeterminate bar while navigating (not when leaving the under-development or
 * access-denied pages) and while requests are loading.
 */
export function GlobalLoadingBar() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const location = useLocation();
  const fetching = useIsFetching();
  const mutating = useIsMutating();
  const busy = useStore(busyStore);
  const fromExempt = location.pathname === UNDER_DEVELOPMENT_PATH || location.pathname === ACCESS_DENIED_PATH;
  const navigating = navigation.state !== 'idle' && !fromExempt;
  const active = navigating || fetching > 0 || mutating > 0 || busy > 0;
  if (!active) return null;
  return (
    <div
      className={classes.bar}
      role="progressbar"
      aria-label={t('common.loading')}
      aria-busy="true"
      data-testid="global-loading"
      data-navigating={navigating || undefined}
    >
      <div className={classes.indicator} />
    </div>
  );
}
