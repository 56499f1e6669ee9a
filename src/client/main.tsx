import './lib/zod-jitless.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import '@fontsource-variable/inter';
import './styles.css';
import { Providers } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';

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
