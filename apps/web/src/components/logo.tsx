import { useComputedColorScheme } from '@mantine/core';

/** The product logo; a light-on-dark variant in dark mode (spec section 2, login screen). */
export function Logo({ height = 28 }: { height?: number }) {
  const scheme = useComputedColorScheme('light');
  return (
    <img
      src={scheme === 'dark' ? '/logo-dark.svg' : '/logo.svg'}
      alt="Fleetline"
      height={height}
      width={Math.round((height * 148) / 32)}
      data-scheme={scheme}
      style={{ display: 'block' }}
    />
  );
}
