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
