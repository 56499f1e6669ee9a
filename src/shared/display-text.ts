/**
 * Names and titles (a member's name, a topic's or a song's title, what admins call a course...) are
 * shown inline among other people's words, so they must look like what they are. `cleanDisplayText`
 * removes the characters that let a name pretend to be something else, and the shared schemas apply
 * it before trimming, so the client's checks and the server's stored value agree:
 *
 * - bidirectional controls (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates,
 *   U+200E/U+200F/U+061C marks): "\u202Eecila" would otherwise show as "alice", and an unclosed
 *   override reverses the words after the name too;
 * - invisible characters: zero-width space U+200B, word joiner U+2060, U+FEFF, soft hyphen,
 *   combining grapheme joiner, invisible operators, deprecated format characters, interlinear
 *   annotation marks, the Hangul fillers that render as nothing, and tag characters outside an
 *   emoji flag;
 * - zero-width joiner U+200D and non-joiner U+200C, except where they change what is seen: the
 *   joiner between two emoji (the family and rainbow-flag sequences are emoji joined by U+200D),
 *   and either of them between two letters of a script whose letters join or conjoin (Arabic,
 *   Indic and similar scripts: Persian writes U+200C inside words such as "mi-khaham");
 * - control characters and line or paragraph separators become a space (a name is one line).
 *
 * Trimming and the "required" check are the schema's own, after this.
 */

const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/gu;
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// the combining grapheme joiner stands alone: inside a class it would read as joined to its neighbour
const INVISIBLE = /\u034f|[\u00ad\u115f\u1160\u180e\u200b\u2060-\u2064\u206a-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]/g;
/** a black flag followed by tag letters and a cancel tag is a subdivision flag (Scotland's, England's, Wales'); any other tag character is hidden text */
const TAGS = /(\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F})|[\u{E0000}-\u{E007F}]/gu;
const JOINERS = /[\u200c\u200d]/;
const EMOJI_BEFORE_JOINER = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]/u;
const EMOJI_AFTER_JOINER = /\p{Extended_Pictographic}/u;
/** scripts in which ZWJ / ZWNJ decide how neighbouring letters join or conjoin */
const JOINING_SCRIPT =
  /[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Mandaic}\p{sc=Mongolian}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tibetan}]/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;

const joinsLetters = (before: string, after: string) =>
  LETTER_OR_MARK.test(before) &&
  LETTER_OR_MARK.test(after) &&
  JOINING_SCRIPT.test(before) &&
  JOINING_SCRIPT.test(after);

function keepJoiner(joiner: string, before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined) return false;
  if (joiner === '\u200d' && EMOJI_BEFORE_JOINER.test(before) && EMOJI_AFTER_JOINER.test(after)) return true;
  return joinsLetters(before, after);
}

/** The name or title as it may be shown: see the module comment. Not trimmed. */
export function cleanDisplayText(text: string): string {
  const plain = text
    .replace(LINE_BREAKING, ' ')
    .replace(BIDI_CONTROLS, '')
    .replace(INVISIBLE, '')
    .replace(TAGS, (_m, flag: string | undefined) => flag ?? '');
  if (!JOINERS.test(plain)) return plain;
  // by code point, so an emoji (two UTF-16 units) is one neighbour; a run of joiners keeps none
  const chars = Array.from(plain);
  let out = '';
  chars.forEach((c, i) => {
    if (c !== '\u200c' && c !== '\u200d') out += c;
    else if (keepJoiner(c, chars[i - 1], chars[i + 1])) out += c;
  });
  return out;
}

/**
 * `text` wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, for a name placed inside a plain
 * string (a toast, a confirmation, an aria-label): the string's own words keep their order whatever
 * the name holds. The markup equivalent is `<bdi>` (the client's `UserText`).
 */
export const isolateText = (text: string) => `\u2068${text}\u2069`;
