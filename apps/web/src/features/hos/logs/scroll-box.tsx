import type { ReactNode } from 'react';
import classes from './log-page.module.css';

/**
 * A wide table's sideways scroller on small screens. It takes focus (a keyboard user scrolls it with
 * the arrow keys; axe's scrollable-region-focusable) and is named after its table.
 */
export function ScrollBox({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  return (
    <div className={classes.scroll} tabIndex={0} role="region" aria-label={`${label} (scrolls sideways)`}>
      <div style={{ minWidth }}>{children}</div>
    </div>
  );
}
