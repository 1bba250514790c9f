import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { currentUser } from '../lib/auth-store.ts';
import { accessUser, controlStore } from '../lib/control-store.ts';
import { loadChunk } from '../lib/preload-error.ts';
import { loadMoreWords } from '../i18n/i18n.ts';
import { guardRedirect } from './guard.ts';
import { flattenRoutes, ROUTES, type AppRoute } from './routes.ts';
import { AppLayout } from './layout/app-layout.tsx';
import { RouteError } from './layout/route-error.tsx';

/** Route `handle`: the table entry, for titles and the loading-indicator rule. */
export interface RouteHandle {
  route: AppRoute;
}

function toRouteObject(route: AppRoute): RouteObject {
  const page = route.page;
  return {
    path: route.path,
    handle: { route } satisfies RouteHandle,
    // The guard runs before the screen's chunk loads, so a denied user never downloads it.
    loader: ({ request }) => {
      const target = guardRedirect(route, accessUser(currentUser(), controlStore.get()));
      if (target && target !== new URL(request.url).pathname) throw redirect(target);
      return null;
    },
    // A hub without a screen of its own lists its children (a chunk too: the first load does without it).
    // Every screen but the driver's home also waits for the rest of the words (issue 67, i18n.ts).
    lazy: page
      ? async () => {
          const [m] = await Promise.all([loadChunk(page), route.firstWordsOnly ? undefined : loadMoreWords()]);
          return { Component: m.default };
        }
      : async () => {
          const [{ SectionIndex }] = await Promise.all([loadChunk(() => import('./layout/section-index.tsx')), loadMoreWords()]);
          return { Component: () => <SectionIndex route={route} /> };
        },
  };
}

export function buildRoutes(): RouteObject[] {
  return [
    {
      Component: AppLayout,
      ErrorBoundary: RouteError,
      // The first screen's chunk loads before anything renders; the page stays blank for that moment.
      HydrateFallback: () => null,
      children: flattenRoutes(ROUTES).map(({ route }) => toRouteObject(route)),
    },
  ];
}

export const createAppRouter = () => createBrowserRouter(buildRoutes());
