import { useState } from 'react';
import { DatesProvider } from '@mantine/dates';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { RouterProvider } from 'react-router';
import { CACHE_MAX_AGE_MS, queryClient, queryPersister } from '../lib/query-client.ts';
import { FIRST_DAY_OF_WEEK } from '../lib/dates.ts';
import { ThemeProvider } from './layout/theme-provider.tsx';
import { createAppRouter } from './router.tsx';

/** Providers: theme (dark mode only when the flag allows it), query cache persisted 2 h, router. */
export function App() {
  const [router] = useState(createAppRouter);
  return (
    <ThemeProvider>
      <DatesProvider settings={{ firstDayOfWeek: FIRST_DAY_OF_WEEK, locale: 'en' }}>
        <PersistQueryClientProvider
          client={queryClient}
          persistOptions={{
            persister: queryPersister,
            maxAge: CACHE_MAX_AGE_MS,
            // Only successful GET results are worth keeping (queries are GETs by construction).
            dehydrateOptions: { shouldDehydrateQuery: (q) => q.state.status === 'success' },
          }}
          // Restored answers paint at once but count as stale: the screens revalidate them in the
          // background, so a change saved just before a reload is never hidden by the older copy.
          onSuccess={() => void queryClient.invalidateQueries()}
        >
          <RouterProvider router={router} />
        </PersistQueryClientProvider>
      </DatesProvider>
    </ThemeProvider>
  );
}
