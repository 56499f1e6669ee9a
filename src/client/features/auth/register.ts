/** The "Create Your Account" modal's name (open it with `openModal(REGISTER_MODAL)`); kept apart so pages need not load the modal's code. */
export const REGISTER_MODAL = 'register';
