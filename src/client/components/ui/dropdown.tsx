import { useState, type ReactNode } from 'react';
import * as Menu from '@radix-ui/react-dropdown-menu';
import clsx from 'clsx';
import { LIMITS } from '#shared/constants';

interface DropdownProps {
  trigger: ReactNode;
  label: string;
  children: ReactNode;
  align?: 'start' | 'end';
  className?: string;
}

/**
 * Opens when its button is clicked, closes on a click outside (stacking level 1000: docs/product/pages-and-http.md).
 * The menu's portal is mounted only while it is open, as the dialogs' are: a closed Radix portal (its
 * Presence) sends itself an update from a layout effect when it mounts, and that synchronous re-render
 * pulled the page's passive effects into the task of its first commit (blocking time;
 * docs/decisions/0013-first-commit.md).
 */
export function Dropdown({ trigger, label, children, align = 'end', className }: DropdownProps) {
  const [open, setOpen] = useState(false);
  return (
    <Menu.Root modal={false} open={open} onOpenChange={setOpen}>
      <Menu.Trigger
        aria-label={label}
        className="grid min-h-11 min-w-11 place-items-center rounded-full text-fg hover:bg-surface-2 data-[state=open]:bg-surface-2"
      >
        {trigger}
      </Menu.Trigger>
      {open ? (
        <Menu.Portal>
          <Menu.Content
            align={align}
            sideOffset={8}
            style={{ zIndex: LIMITS.dropdownZIndex }}
            className={clsx(
              'min-w-56 max-w-[min(20rem,calc(100vw-1rem))] rounded-xl border border-line bg-surface p-1.5 text-fg shadow-xl',
              className,
            )}
          >
            {children}
          </Menu.Content>
        </Menu.Portal>
      ) : null}
    </Menu.Root>
  );
}

export const DropdownItem = ({
  children,
  onSelect,
  className,
}: {
  children: ReactNode;
  onSelect?: (e: Event) => void;
  className?: string;
}) => (
  <Menu.Item
    onSelect={onSelect}
    className={clsx(
      'flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-3 text-base outline-none data-[highlighted]:bg-surface-2',
      className,
    )}
  >
    {children}
  </Menu.Item>
);

/** A menu item that is a link (keeps middle-click and open-in-new-tab). */
export const DropdownLink = ({ href, children }: { href: string; children: ReactNode }) => (
  <Menu.Item asChild>
    <a
      href={href}
      className="flex min-h-11 items-center gap-3 rounded-lg px-3 text-base no-underline outline-none data-[highlighted]:bg-surface-2"
    >
      {children}
    </a>
  </Menu.Item>
);

export const DropdownLabel = ({ children }: { children: ReactNode }) => (
  <Menu.Label className="px-3 pb-1 pt-2 text-sm font-semibold text-muted">{children}</Menu.Label>
);
export const DropdownSeparator = () => <Menu.Separator className="my-1 h-px bg-line" />;
