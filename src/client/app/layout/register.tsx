import { RegisterModal } from '#client/features/auth/components/register-modal.tsx';
import { WithQuery } from '../query.tsx';

/** The visitor's "Create Your Account" modal with the query cache it uses; a chunk loaded on the first "Join". */
export const VisitorRegisterModal = () => (
  <WithQuery>
    <RegisterModal />
  </WithQuery>
);
