import { Tooltip, type TooltipProps } from '@mantine/core';

// Mantine's Tooltip, in a chunk of its own with floating-ui: hint.tsx loads it on first use (issue 67).
export default function HintTooltip(props: TooltipProps) {
  return <Tooltip {...props} />;
}
