import { useSyncExternalStore } from 'react';
import { CheckCircle2, AlertTriangle, X, XCircle } from 'lucide-react';
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
  // at the foot of the window, where no page keeps its own actions: at the top a toast would lie over
  // the buttons beside a page's heading (a topic's moderation menu) for its ten seconds
  return (
    <div
      aria-live="polite"
      role="region"
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-[1100] flex flex-col items-center gap-2 px-3 sm:left-auto sm:right-4 sm:items-end"
    >
      {list.map((t) => {
        const Icon = ICONS[t.type];
        return (
          // the message is the status, announced as it appears; a click anywhere on it closes it, and its
          // button (whose click reaches the status) does so from the keyboard, named for what it does
          <div
            key={t.id}
            role="status"
            data-toast-type={t.type}
            data-state={t.open ? 'open' : 'closed'}
            onClick={() => close(t.id)}
            className={clsx(
              'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border py-3 pl-4 pr-2 text-left text-base shadow-lg transition-opacity duration-150',
              STYLES[t.type],
              // fading out, it no longer stands between the pointer and the page
              !t.open && 'pointer-events-none opacity-0',
            )}
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
            <span className="min-w-0 flex-1 wrap-anywhere">{t.message}</span>
            <button
              type="button"
              aria-label="Dismiss notification"
              className="-my-1 inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-black/5 hover:text-fg"
            >
              <X aria-hidden className="size-4" />
            </button>
          </div>
        );
      })}
    </div>
  );
}
