import { CreditCard, Flag, LogOut, Settings, UserRound } from 'lucide-react';
import { pageConfig } from '#client/lib/page-config.ts';
import { Avatar } from '#client/components/ui/avatar.tsx';
import {
  Dropdown,
  DropdownItem,
  DropdownLabel,
  DropdownLink,
  DropdownSeparator,
} from '#client/components/ui/dropdown.tsx';
import { navigate, useLogout } from '../api/auth.ts';

/** The header account menu; the mentorship version links to the mentorship account page. */
export function AccountMenu({ mentorship = false }: { mentorship?: boolean }) {
  const config = pageConfig();
  const logout = useLogout();
  const signOut = async () => {
    try {
      navigate.within((await logout.mutateAsync()).redirect, '/');
    } catch {
      navigate.to('/');
    }
  };
  return (
    <Dropdown label="Account menu" trigger={<Avatar src={config.authAvatarUrl} name="" size={36} />}>
      <DropdownLabel>{config.authName}</DropdownLabel>
      <DropdownLink href={mentorship ? '/mentorship/account' : '/account/profile'}>
        <Settings aria-hidden className="size-5 text-muted" /> Account
      </DropdownLink>
      <DropdownLink href="/account/billing">
        <CreditCard aria-hidden className="size-5 text-muted" /> Billing
      </DropdownLink>
      <DropdownLink href={config.authProfileUrl ?? '/dashboard'}>
        <UserRound aria-hidden className="size-5 text-muted" /> My Profile
      </DropdownLink>
      {config.admin ? (
        <DropdownLink href="/admin/reports">
          <Flag aria-hidden className="size-5 text-muted" /> Reports
        </DropdownLink>
      ) : null}
      {config.admin ? (
        <DropdownLink href="/admin/cancellations">
          <CreditCard aria-hidden className="size-5 text-muted" /> Cancellations
        </DropdownLink>
      ) : null}
      <DropdownSeparator />
      <DropdownItem onSelect={() => void signOut()}>
        <LogOut aria-hidden className="size-5 text-muted" /> Sign Out
      </DropdownItem>
    </Dropdown>
  );
}
