/*
 * While the entry's modules evaluate, a new Error captures no stack trace (issue 9: the signed-in pages'
 * blocking time). React DOM creates its sentinel errors (SuspenseException and the like, never shown)
 * as it initialises, inside the bundle's function that wraps all of React DOM, inside the entry chunk's
 * top level. With a DevTools client attached (Lighthouse, any Chrome DevTools Protocol session) V8 then
 * collects the source positions of every function on that stack by parsing them again: the whole
 * wrapper and the whole chunk, measured here at 300–470 ms of the entry's 640 ms evaluation at 4x CPU
 * slowdown (V8.CollectSourcePositions in a trace), none without DevTools. Without a numeric
 * `Error.stackTraceLimit` V8 captures no stack, so nothing is parsed again. src/client/main.tsx imports
 * this first, before React, and calls restoreStackTraces() once its imports have run, before it renders:
 * errors thrown by the app keep their stacks. (Browsers without the V8 property are left as they are.)
 */
type ErrorWithLimit = { stackTraceLimit?: unknown };

const errorCtor = Error as unknown as ErrorWithLimit;
const had = Object.prototype.hasOwnProperty.call(errorCtor, 'stackTraceLimit');
const saved = errorCtor.stackTraceLimit;
if (had && typeof saved === 'number') delete errorCtor.stackTraceLimit;

/** Puts Error.stackTraceLimit back as it was. */
export function restoreStackTraces() {
  if (had && typeof saved === 'number') errorCtor.stackTraceLimit = saved;
}
