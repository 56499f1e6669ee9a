import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { openModal } from './modal-events.ts';

/**
 * A modal's frame while its code is still on the way: shown the moment it is asked for, so a click
 * that opens a modal is answered at once, with the modal's own title and a spinner. It is a status,
 * not the dialog: the dialog (with its focus trap) is the one that arrives.
 */
export function ModalLoading({ title }: { title: string }) {
  return (
    <div className="fixed inset-0 z-[900] grid place-items-center bg-black/55 p-3 backdrop-blur-[2px]">
      <div
        aria-busy="true"
        className="w-full max-w-md rounded-2xl border border-line bg-surface p-6 text-fg shadow-2xl sm:p-8"
      >
        <p className="text-2xl font-bold tracking-tight">{title}</p>
        <div className="grid min-h-40 place-items-center">
          {/* drawn by CSS: this frame is part of the page's first JavaScript, so it carries no icon */}
          <span
            role="status"
            aria-label={`Opening ${title}`}
            className="size-6 animate-spin rounded-full border-[3px] border-accent border-t-transparent motion-reduce:animate-none"
          />
        </div>
      </div>
    </div>
  );
}

/**
 * A modal whose code loads on its first "open" (`openModal(name)`), so that it is no part of the page's
 * first JavaScript. Until it arrives the click is answered at once with the modal's frame and a spinner
 * (ModalLoading); once the modal is mounted, and listening, it is sent that first "open" again.
 * `children` is the lazily loaded modal, named `name`.
 */
export function DeferredModal({ name, title, children }: { name: string; title: string; children: ReactNode }) {
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (asked) return;
    const ask = () => setAsked(true);
    window.addEventListener(`open-${name}`, ask);
    return () => window.removeEventListener(`open-${name}`, ask);
  }, [asked, name]);
  if (!asked) return null;
  return (
    <Suspense fallback={<ModalLoading title={title} />}>
      {children}
      <OpenOnMount name={name} />
    </Suspense>
  );
}

/** Mounted after the modal beside it (whose effect listens first): re-sends the "open" that loaded it. */
function OpenOnMount({ name }: { name: string }) {
  useEffect(() => {
    openModal(name);
  }, [name]);
  return null;
}
