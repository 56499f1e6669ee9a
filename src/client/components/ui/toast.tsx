import { useSyncExternalStore } from 'react';
import { CheckCircle2, AlertTriangle, XCircle } from 'lucide-react';
import clsx from 'clsx';
import { LIMITS } from '#shared/constants';

export type ToastType = 'success' | 'warning' | 'danger';
interface ToastItem {
  id: number;
  message: string;
  type: ToastType;
  open: boolean;
}

let items: ToastItem[] = [];
let seq = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function close(id: number) {
  const item = items.find((t) => t.id === id);
  if (!item || !item.open) return;
  items = items.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  // removed from the page 1 s after it closes
  setTimeout(() => {
    items = items.filter((t) => t.id !== id);
    emit();
  }, LIMITS.toastRemoveAfterCloseMs);
}

/** Show a toast: it closes by itself after 10 s, or on a click. */
export function toast(message: string, type: ToastType = 'success') {
  const id = ++seq;
  items = [...items, { id, message, type, open: true }];
  emit();
  setTimeout(() => close(id), LIMITS.toastAutoDismissMs);
  return id;
}

if (typeof window !== 'undefined') {
  // other code (and tests) can raise a toast with a page-wide event
  window.addEventListener('toast', (e) => {
    const detail = (e as CustomEvent<{ message?: string; type?: ToastType }>).detail;
    if (detail?.message) toast(detail.message, detail.type ?? 'success');
  });
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

const ICONS = { success: CheckCircle2, warning: AlertTriangle, danger: XCircle };
const STYLES: Record<ToastType, string> = {
  success: 'border-success/40 bg-success-soft text-fg',
  warning: 'border-warning/40 bg-warning-soft text-fg',
  danger: 'border-danger/40 bg-danger-soft text-fg',
};

export function Toaster() {
  const list = useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
  return (
    <div
      aria-live="polite"
      role="region"
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-[1100] flex flex-col items-center gap-2 px-3 sm:bottom-auto sm:left-auto sm:right-4 sm:top-20 sm:items-end"
    >
      {list.map((t) => {
        const Icon = ICONS[t.type];
        return (
          // the status holds a button (a click or Enter closes it): a status takes no name from its
          // content, so a button given the status role would have none
          <div
            key={t.id}
            role="status"
            data-toast-type={t.type}
            data-state={t.open ? 'open' : 'closed'}
            className={clsx(
              'pointer-events-auto w-full max-w-sm rounded-xl border shadow-lg transition-opacity duration-150',
              STYLES[t.type],
              !t.open && 'opacity-0',
            )}
          >
            <button
              type="button"
              onClick={() => close(t.id)}
              className="flex w-full items-start gap-3 rounded-xl px-4 py-3 text-left text-base"
            >
              <Icon
                aria-hidden
                className={clsx(
                  'mt-0.5 size-5 shrink-0',
                  t.type === 'success' && 'text-success',
                  t.type === 'warning' && 'text-warning',
                  t.type === 'danger' && 'text-danger',
                )}
              />
              <span>{t.message}</span>
            </button>
          </div>
        );
      })}
    </div>
  );
}
