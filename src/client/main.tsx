import { restoreStackTraces } from './lib/quiet-stacks.ts';
import './lib/zod-jitless.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import '@fontsource-variable/inter';
import './styles.css';
import { Providers } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';

// the imports above ran without stack traces (lib/quiet-stacks.ts); from here on errors have them
restoreStackTraces();

const root = createRoot(document.getElementById('root')!);
startTransition(() => root.render(
  <StrictMode>
    <Providers>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
));
