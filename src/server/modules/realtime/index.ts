/** The realtime module's front door: what other modules and the app may use of it. */
export { createRealtime, type Io, type Realtime, userRoom } from './service.ts';
