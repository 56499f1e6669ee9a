import type { ReactNode } from 'react';

/**
 * A name or a title someone typed (a member's name, a topic's, a song's...), shown among other
 * words. `<bdi>` takes its direction from its own first strong letter and is isolated
 * (`unicode-bidi: isolate`), so right-to-left letters, or a control character stored before names
 * were cleaned, cannot reorder the words around it ("Anna · active 2 minutes ago" stays in order).
 * For a name inside a plain string (a toast, a confirmation, an attribute) use `isolateText`.
 */
export const UserText = ({ children, className }: { children: ReactNode; className?: string }) => (
  <bdi className={className}>{children}</bdi>
);
