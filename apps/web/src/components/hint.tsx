import { cloneElement, lazy, Suspense, useRef, useState, type FocusEvent, type MouseEvent, type ReactElement } from 'react';
import type { TooltipProps } from '@mantine/core';
import { loadChunk } from '../lib/preload-error.ts';
import type * as HintModule from './hint-tooltip.tsx';

// A tooltip whose code (Mantine's Tooltip and floating-ui, about 20 KB gzip) loads on the first hover
// or focus of a target, not with the page (issue 67). Until then the target is rendered alone; it
// carries its own accessible name, so a screen reader misses nothing meanwhile. Wrapping the target
// makes it a new element, so the swap waits until the pointer has left it and it has lost focus: a
// click that follows the hover is never lost. Once the code is loaded, hints rendered later are
// tooltips from the start.
let loaded = false;
let loading: Promise<typeof HintModule> | null = null;
const loadHint = () =>
  (loading ??= loadChunk(() => import('./hint-tooltip.tsx')).then((m) => {
    loaded = true;
    return m;
  }));
const HintTooltip = lazy(loadHint);

interface TargetProps {
  onMouseEnter?: (e: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (e: MouseEvent<HTMLElement>) => void;
  onFocus?: (e: FocusEvent<HTMLElement>) => void;
  onBlur?: (e: FocusEvent<HTMLElement>) => void;
}

export type HintProps = Omit<TooltipProps, 'children'> & { children: ReactElement<TargetProps> };

/** Mantine's Tooltip around `children`, its code loaded on the first hover or focus. */
export function Hint({ children, ...tooltip }: HintProps) {
  const [ready, setReady] = useState(loaded);
  const use = useRef({ over: false, focused: false });
  if (ready)
    return (
      <Suspense fallback={children}>
        <HintTooltip {...tooltip}>{children}</HintTooltip>
      </Suspense>
    );
  const settle = () => {
    if (loaded && !use.current.over && !use.current.focused) setReady(true);
  };
  const used = () => void loadHint().then(settle, () => undefined);
  return cloneElement(children, {
    onMouseEnter: (e: MouseEvent<HTMLElement>) => {
      children.props.onMouseEnter?.(e);
      use.current.over = true;
      used();
    },
    onMouseLeave: (e: MouseEvent<HTMLElement>) => {
      children.props.onMouseLeave?.(e);
      use.current.over = false;
      settle();
    },
    onFocus: (e: FocusEvent<HTMLElement>) => {
      children.props.onFocus?.(e);
      use.current.focused = true;
      used();
    },
    onBlur: (e: FocusEvent<HTMLElement>) => {
      children.props.onBlur?.(e);
      use.current.focused = false;
      settle();
    },
  });
}
