import type { GridWords } from './graph-grid-text.ts';
import classes from './graph-grid.module.css';

interface GraphGridLegendProps {
  pc: boolean;
  ym: boolean;
  violations: boolean;
  live: boolean;
  words: GridWords;
}

/** Notes under the grid for what is drawn differently; nothing when the day has none of it. */
export function GraphGridLegend({ pc, ym, violations, live, words: w }: GraphGridLegendProps) {
  if (!pc && !ym && !violations && !live) return null;
  return (
    <ul className={classes.legend} aria-hidden>
      {pc && (
        <li>
          <Swatch className={classes.linePC} /> {w.legend.pc}
        </li>
      )}
      {ym && (
        <li>
          <Swatch className={classes.lineYM} /> {w.legend.ym}
        </li>
      )}
      {violations && (
        <li>
          <svg width="22" height="12" aria-hidden>
            <rect className={classes.violation} x="0" y="0" width="22" height="12" />
            <line className={classes.violationEdge} x1="0" x2="22" y1="10.5" y2="10.5" />
          </svg>{' '}
          {w.legend.violation}
        </li>
      )}
      {live && (
        <li>
          <svg width="12" height="12" aria-hidden>
            <line className={classes.now} x1="6" x2="6" y1="0" y2="12" />
          </svg>{' '}
          {w.now}
        </li>
      )}
    </ul>
  );
}

function Swatch({ className }: { className?: string }) {
  return (
    <svg width="28" height="12" aria-hidden>
      <polyline className={className} points="1,6 27,6" />
    </svg>
  );
}
