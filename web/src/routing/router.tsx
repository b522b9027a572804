import { Suspense } from 'react';
import { Outlet, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { setForbiddenHandler } from '../api/client';
import { PATHS } from './guard';
import { APP_ROUTES, preloadScreen } from './routes';
import { GuardedLayout, type GuardHandle } from './guarded-layout';
import { PageLoading, RouteErrorPage } from './route-fallbacks';
import NotFoundPage from '../pages/not-found/not-found-page';

function PublicLayout() {
  return (
    <Suspense fallback={<PageLoading keepFrame />}>
      <Outlet />
    </Suspense>
  );
}

/** Builds the browser-history router from the route table. */
export function createAppRouter() {
  const publicRoutes: RouteObject[] = [];
  const guardedRoutes: RouteObject[] = [];
  for (const route of APP_ROUTES) {
    const Component = route.component;
    if (route.levels === null) {
      publicRoutes.push({ path: route.path, element: <Component /> });
    } else {
      const handle: GuardHandle = { levels: route.levels };
      guardedRoutes.push({ path: route.path, element: <Component />, handle });
    }
  }

  const router = createBrowserRouter([
    {
      errorElement: <RouteErrorPage />,
      children: [
        { element: <PublicLayout />, children: publicRoutes },
        { element: <GuardedLayout />, children: guardedRoutes },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
  // The first screen's chunk loads beside the session check (a failure here is the screen's own to report).
  preloadScreen(window.location.pathname);
  // Spec §2: a 403 from any call sends the browser to the guest forbidden page.
  setForbiddenHandler(() => void router.navigate(PATHS.forbidden));
  return router;
}
