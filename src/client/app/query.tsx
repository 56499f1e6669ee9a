import type { ComponentType, ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '#client/lib/query-client.ts';

/*
 * TanStack Query is loaded with the parts that use it (pages, the member menus, the register modal),
 * not in the entry chunk, so a page without server data (the landing page, the diagnostic) does not
 * pay for it. One cache for the whole tab: every part wraps itself in the same client.
 */
const client = createQueryClient();

export const WithQuery = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={client}>{children}</QueryClientProvider>
);

export function withQuery(Page: ComponentType): ComponentType {
  const Wrapped = () => (
    <WithQuery>
      <Page />
    </WithQuery>
  );
  return Wrapped;
}
