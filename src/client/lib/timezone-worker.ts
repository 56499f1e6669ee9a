/*
 * The browser's time zone, worked out off the main thread (lib/timezone.ts). The first Intl formatter
 * a page makes loads the locale and time-zone data, a visible share of the main thread on a phone-speed
 * CPU, for a name the server needs once a day.
 */
(self as unknown as { postMessage(message: string): void }).postMessage(
  Intl.DateTimeFormat().resolvedOptions().timeZone,
);

export {};
