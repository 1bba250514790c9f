import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { createBrowserRouter, RouterProvider, type SetURLSearchParams } from 'react-router';
import { useSearchParams, withParams } from './search-params.ts';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

/** Two filters chosen before the page renders again (a navigation renders in a transition a busy page defers). */
async function chooseTwoFilters(setters: SetURLSearchParams[]): Promise<void> {
  const set = setters.at(-1)!;
  await act(async () => {
    set((prev) => withParams(prev, { entity: 'ROLE' }, 'page'), { replace: true });
    // The router writes the address bar once its (synchronous) loaders are done: microtasks only.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    set((prev) => withParams(prev, { action: 'UPDATE' }, 'page'), { replace: true });
  });
}

describe('useSearchParams', () => {
  it('gives a function the parameters of now, not of the last render: two quick filters both stay', async () => {
    const setters: SetURLSearchParams[] = [];
    function Filters() {
      const [, setParams] = useSearchParams();
      setters.push(setParams);
      return null;
    }
    window.history.replaceState(null, '', '/activity?page=2');
    const router = createBrowserRouter([{ path: '/activity', loader: () => null, Component: Filters }]);
    render(<RouterProvider router={router} />);
    await act(async () => router.navigate('/activity?page=2', { replace: true }));
    await chooseTwoFilters(setters);
    expect(new URLSearchParams(window.location.search).toString()).toBe('entity=ROLE&action=UPDATE');
    expect(router.state.location.search).toBe('?entity=ROLE&action=UPDATE');
  });
});
