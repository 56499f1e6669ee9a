import { Check, CloudOff, Copy, Ellipsis, FileDown, Loader2, Trash2, TriangleAlert } from 'lucide-react';
import clsx from 'clsx';
import { SONG, type Song } from '#shared/songmapper';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Dropdown, DropdownItem, DropdownSeparator } from '#client/components/ui/dropdown.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import type { SaveError, SaveStatus } from '../autosave.ts';
import { TemplatesMenu } from './templates-menu.tsx';

/** What the indicator says ("Saving..." then "Saved!" for 1.5 s; failures say so). */
function StatusText({ status, error }: { status: SaveStatus; error: SaveError | null }) {
  const content: Record<SaveStatus, [string, React.ReactNode, string]> = {
    idle: ['', null, ''],
    saving: [
      SONG.saving,
      <Loader2 key="i" aria-hidden className="size-4 animate-spin motion-reduce:animate-none" />,
      'text-muted',
    ],
    saved: [SONG.saved, <Check key="i" aria-hidden className="size-4" />, 'text-success'],
    retrying: [SONG.saveFailed, <TriangleAlert key="i" aria-hidden className="size-4" />, 'text-warning'],
    offline: [SONG.offline, <CloudOff key="i" aria-hidden className="size-4" />, 'text-warning'],
    error: [error?.message ?? SONG.saveFailed, <TriangleAlert key="i" aria-hidden className="size-4" />, 'text-danger'],
  };
  const [text, icon, tone] = content[status];
  return (
    <p
      role="status"
      aria-live="polite"
      data-testid="save-status"
      className={clsx('flex min-h-6 items-center gap-1.5 text-sm font-semibold', tone)}
    >
      {icon}
      {text}
    </p>
  );
}

/**
 * The editor's head: the save indicator and the song's actions. A saved song also has its PDF, its
 * share link and Delete; on a phone the share link and Delete sit in a "More song actions" menu at
 * the row's end, so the row fits a 360 px screen on one line with every control at full size.
 * The indicator keeps its own line there, so the actions do not move when it speaks.
 */
export function SongToolbar({
  id,
  song,
  status,
  error,
  onApplyTemplate,
  onDelete,
}: {
  /** the saved song's id, null before its first save */
  id: string | null;
  song: Song;
  status: SaveStatus;
  error: SaveError | null;
  onApplyTemplate: (template: Song, message: string) => void;
  onDelete: () => void;
}) {
  const shareUrl = id ? `${window.location.origin}/songmapper/pdf/${id}` : null;
  const copyShare = async () => {
    if (!shareUrl) return;
    try {
      await navigator.clipboard.writeText(shareUrl);
      toast('Share link copied.');
    } catch {
      toast(shareUrl, 'warning');
    }
  };

  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between sm:gap-3">
      <StatusText status={status} error={error} />
      <div role="group" aria-label="Song actions" className="flex items-center gap-1.5 sm:gap-2">
        <TemplatesMenu song={song} onApply={onApplyTemplate} />
        {shareUrl ? (
          <>
            <a
              href={`/songmapper/pdf/${id}`}
              target="_blank"
              rel="noopener"
              className={clsx(buttonClass('secondary'), 'px-3 sm:px-4')}
            >
              <FileDown aria-hidden className="size-5" /> PDF
            </a>
            <div className="hidden items-center gap-2 sm:flex">
              <Button variant="secondary" onClick={copyShare} aria-label="Copy share link" className="px-4">
                <Copy aria-hidden className="size-5" />
                Share link
              </Button>
              <Button variant="ghost" onClick={onDelete} aria-label="Delete song" className="px-3 text-danger">
                <Trash2 aria-hidden className="size-5" />
              </Button>
            </div>
            <div className="ml-auto sm:hidden">
              <Dropdown label="More song actions" trigger={<Ellipsis aria-hidden className="size-5" />}>
                <DropdownItem onSelect={() => void copyShare()}>
                  <Copy aria-hidden className="size-4" /> Copy share link
                </DropdownItem>
                <DropdownSeparator />
                <DropdownItem className="text-danger" onSelect={onDelete}>
                  <Trash2 aria-hidden className="size-4" /> Delete song
                </DropdownItem>
              </Dropdown>
            </div>
          </>
        ) : null}
      </div>
    </div>
  );
}
