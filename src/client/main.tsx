import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import '@fontsource-variable/inter';
import './styles.css';
import { Providers } from './app/providers.tsx';
import { AppRoutes, preloadPage } from './app/router.tsx';
import { preloadFrame } from './app/layout/app-layout.tsx';

const root = createRoot(document.getElementById('root')!);
const render = () =>
  startTransition(() =>
    root.render(
      <StrictMode>
        <Providers>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </Providers>
      </StrictMode>,
    ),
  );
render();
// The frame renders at once, with the page's loading state until the page's code is in. React would show
// the page only 300 ms after that loading state (a Suspense retry is throttled), so the arrival of the
// page's code (and, signed in, of the member menus) renders again: an update, shown as soon as it is ready.
// Their modules were preloaded with the entry (src/server/plugins/preload.ts).
void Promise.all([preloadPage(window.location.pathname), preloadFrame()]).then(render);
