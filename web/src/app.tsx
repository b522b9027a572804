import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { I18nProvider } from '@cloudscape-design/components/i18n';
import spanishMessages from '@cloudscape-design/components/i18n/messages/all.es';
import { ApiError } from './api/client';
import { FeedbackProvider } from './feedback/feedback';
import { useStaticFrameRelease } from './layout/static-frame';
import { createAppRouter } from './routing/router';

const router = createAppRouter();

/** Client errors (4xx) will not fix themselves: SWR retries only transport and server failures. */
function shouldRetry(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
}

/** Everything around the router: locale, data fetching and feedback. Component tests wrap their router in it. */
export function AppProviders({ children }: { children: ReactNode }) {
  // index.html's frame goes with the app's first commit, unless a loading state keeps it (layout/static-frame.tsx).
  useStaticFrameRelease();
  return (
    <I18nProvider locale="es-PE" messages={[spanishMessages]}>
      <SWRConfig
        value={{
          onErrorRetry: (error, _key, _config, revalidate, { retryCount }) => {
            if (!shouldRetry(error) || retryCount >= 3) return;
            setTimeout(() => void revalidate({ retryCount }), 2000 * 2 ** retryCount);
          },
        }}
      >
        <FeedbackProvider>{children}</FeedbackProvider>
      </SWRConfig>
    </I18nProvider>
  );
}

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

/** Renders the app into the page's root element (main.tsx, once the configuration is in). */
export function renderApp(container: HTMLElement): void {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
