import type { ReactElement } from 'react';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { theme } from '../lib/theme.ts';

/** Renders inside the app's Mantine theme (env "test" turns off transitions). */
export function renderWithTheme(ui: ReactElement) {
  return render(
    <MantineProvider theme={theme} env="test">
      {ui}
    </MantineProvider>,
  );
}
