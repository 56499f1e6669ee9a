/**
 * Dates shown in lists (posts, chat lines, topics, wall comments). `Date#toLocaleString(locale, options)`
 * makes a new Intl.DateTimeFormat on every call, which is slow to make and fast to use: a lesson page's
 * discussion spent more time in its posts' `toLocaleString()` titles than in the rest of their render
 * (seen in a CPU profile). One formatter per locale and options, made once.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

/** what `Date#toLocaleString()` shows without options: the date and the time to the second */
export const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};

export function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** an ISO time (or a Date) in the given locale and options; `locale` undefined is the browser's */
export const formatWhen = (
  when: string | number | Date,
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions = DATE_TIME,
) => dateFormat(locale, options).format(when instanceof Date ? when : new Date(when));

/**
 * Props for a `<time>` showing a relative time ("3 minutes ago"): its title, the exact time, is written
 * when the pointer first reaches it. The first Intl date format of a page loads the browser's locale
 * data (slower still on a phone's CPU), which a list's first render need not pay
 * for tooltips nobody has pointed at yet. The machine-readable time stays in `dateTime`.
 */
export function exactTimeTitle(when: string | Date) {
  return {
    onPointerEnter(event: { currentTarget: HTMLElement }) {
      if (!event.currentTarget.title) event.currentTarget.title = formatWhen(when, undefined);
    },
  };
}
