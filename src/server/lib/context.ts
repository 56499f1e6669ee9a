/**
 * A service built from plain functions that each take the service's context first: `on(f)` is `f`
 * with that context given, so the service object keeps the call shape its callers use.
 */
export function withContext<C>(ctx: C) {
  return <A extends unknown[], R>(f: (ctx: C, ...args: A) => R) =>
    (...args: A): R =>
      f(ctx, ...args);
}
