import type { ReactNode } from 'react';
import { Toaster } from '#client/components/ui/toast.tsx';

/** App-wide providers. The query cache is provided by the parts that use it (src/client/app/query.tsx). */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <Toaster />
    </>
  );
}
