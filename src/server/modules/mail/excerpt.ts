/** The first words of what a member wrote, on one paragraph's worth of lines, for a mail's quote. */
export function mailExcerpt(text: string, max = 280): string {
  const clean = text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The profile names a text mentions: "@jane-doe" (a member's profile address). An @ inside a word
 * (an e-mail address) is not a mention; trailing punctuation is not part of the name.
 */
export function mentionedSlugs(text: string, max = 20): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<![\w@.])@([a-z0-9][a-z0-9_-]{0,79})/gi)) {
    found.add(m[1]!.toLowerCase().replace(/[-_]+$/, ''));
    if (found.size >= max) break;
  }
  return [...found];
}
