import { useMemo } from 'react';
import { encode } from 'uqr';

/** A QR code of `text` drawn as SVG squares (dark on white, whatever the theme, so phones read it). */
export function QrCode({ text, size = 180, label }: { text: string; size?: number; label: string }) {
  const { data } = useMemo(() => encode(text, { ecc: 'M', border: 2 }), [text]);
  const n = data.length;
  const path = useMemo(() => {
    let d = '';
    data.forEach((row, y) => row.forEach((on, x) => on && (d += `M${x} ${y}h1v1h-1z`)));
    return d;
  }, [data]);
  return (
    <svg width={size} height={size} viewBox={`0 0 ${n} ${n}`} role="img" aria-label={label} shapeRendering="crispEdges" data-testid="qr-code" data-text={text}>
      <rect width={n} height={n} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
