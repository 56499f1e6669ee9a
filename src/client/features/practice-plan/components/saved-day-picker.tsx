import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from '#client/components/ui/link.tsx';
import { CalendarDays } from 'lucide-react';
import type { PracticeDay } from '#shared/mentorship';
import { closeModal, Modal, openModal } from '#client/components/ui/modal.tsx';
import { FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { errorMessage } from '#client/lib/api.ts';
import { fetchSavedDay, useSavedDays } from '../api.ts';
import { dayFromSaved } from '../plan-edit.ts';

const NAME = 'insert-saved-day';

/** "Insert saved day": the mentors' reusable days; picking one adds it as a new day with fresh ids. */
export function SavedDayPicker({
  open,
  onClose,
  onPick,
}: {
  open: boolean;
  onClose: () => void;
  onPick: (day: PracticeDay) => void;
}) {
  const days = useSavedDays(open);
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (open) {
      setError(null);
      openModal(NAME);
    } else closeModal(NAME);
  }, [open]);
  // stable for the modal's effect; only a close after an open counts (not the first render's "closed")
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const wasOpen = useRef(false);
  const onOpenChange = useCallback((isOpen: boolean) => {
    if (!isOpen && wasOpen.current) closeRef.current();
    wasOpen.current = isOpen;
  }, []);

  const pick = async (id: number) => {
    setBusy(id);
    setError(null);
    try {
      const day = await fetchSavedDay(id);
      onPick(dayFromSaved(day.title, day.exercises));
    } catch (e) {
      setError(errorMessage(e, []));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      name={NAME}
      title="Insert a saved day"
      description="The day is added to this week with its exercises; edit it freely afterwards."
      onOpenChange={onOpenChange}
    >
      {days.isPending ? <Spinner label="Loading saved days" className="w-full py-6" /> : null}
      {days.isError ? <FormError message={errorMessage(days.error, [])} /> : null}
      {days.data?.length === 0 ? (
        <p className="text-muted">
          No saved days yet.{' '}
          <Link
            to="/mentorship/practice-plan-days"
            className="font-semibold text-accent underline-offset-4 hover:underline"
          >
            Create one
          </Link>
          .
        </p>
      ) : null}
      {days.data?.length ? (
        <ul className="-mx-2 flex flex-col" aria-label="Saved days">
          {days.data.map((d) => (
            <li key={d.id}>
              <button
                type="button"
                disabled={busy !== null}
                onClick={() => void pick(d.id)}
                className="flex min-h-12 w-full items-center gap-3 rounded-xl px-2 py-2 text-left hover:bg-surface-2 disabled:opacity-60"
              >
                <CalendarDays aria-hidden className="size-5 shrink-0 text-accent" />
                <span className="flex-1 font-semibold">{d.title}</span>
                {busy === d.id ? <Spinner label="Adding" /> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <FormError message={error} inline />
    </Modal>
  );
}
