import { cloneElement, Suspense, useState, type FocusEvent, type MouseEvent, type ReactElement } from 'react';
import type { TooltipProps } from '@mantine/core';
import { lazyPart } from './on-first-use.ts';

// A tooltip whose code (Mantine's Tooltip and floating-ui, about 20 KB gzip) loads on the first hover
// or focus of its target, not with the page (issue 67). Until then the target is rendered alone; it
// carries its own accessible name, so the label adds nothing a screen reader misses meanwhile.
const HintTooltip = lazyPart(() => import('./hint-tooltip.tsx'));

interface TargetProps {
  onMouseEnter?: (e: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (e: MouseEvent<HTMLElement>) => void;
  onFocus?: (e: FocusEvent<HTMLElement>) => void;
}

export type HintProps = Omit<TooltipProps, 'children'> & { children: ReactElement<TargetProps> };

/** Mantine's Tooltip around `children`, loaded on first use; it opens at once for the hover or focus that loaded it. */
export function Hint({ children, ...tooltip }: HintProps) {
  // null: not used yet; else how it was first used (and whether the pointer is still over it).
  const [use, setUse] = useState<{ over: boolean; focused: boolean } | null>(null);
  const target = cloneElement(children, {
    onMouseEnter: (e: MouseEvent<HTMLElement>) => {
      children.props.onMouseEnter?.(e);
      setUse((u) => ({ over: true, focused: u?.focused ?? false }));
    },
    onMouseLeave: (e: MouseEvent<HTMLElement>) => {
      children.props.onMouseLeave?.(e);
      setUse((u) => (u ? { ...u, over: false } : u));
    },
    onFocus: (e: FocusEvent<HTMLElement>) => {
      children.props.onFocus?.(e);
      setUse((u) => ({ over: u?.over ?? false, focused: true }));
    },
  });
  if (!use) return target;
  return (
    <Suspense fallback={target}>
      <HintTooltip
        {...tooltip}
        defaultOpened={use.over || use.focused}
        // The target is a new element once the tooltip wraps it: the focus that loaded it moves to it.
        ref={(node: HTMLElement | null) => {
          if (use.focused && node && document.activeElement !== node && (document.activeElement === document.body || !document.activeElement)) node.focus();
        }}
      >
        {children}
      </HintTooltip>
    </Suspense>
  );
}
