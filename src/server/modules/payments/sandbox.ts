/**
 * The sandbox provider (sandbox/index.ts) by the path tests name it: the `#server/*` import map reads
 * `#server/modules/payments/sandbox` as this file.
 */
export * from './sandbox/index.ts';
