/** The users module's front door: what other modules and the app may use of it. */
export { createUserService, type UserRow, type UserService } from './service.ts';
