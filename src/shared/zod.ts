import { z } from 'zod';

/*
 * The project's zod: the same library, configured once so that every refusal a member can meet is a
 * sentence about the field (docs/product/bad-input.md). Schemas name their own messages where the
 * wording matters; whatever they leave to zod is written here instead of zod's developer wording
 * ("Invalid input: expected number, received NaN"). Import `z` from here, never from 'zod' (lint).
 */

type RawIssue = z.core.$ZodRawIssue;

/** "student_id" → "student", "displayName" → "display name", "sections.2.bars" → "bars" */
export function fieldWords(path: readonly PropertyKey[] | undefined): string {
  const last = [...(path ?? [])].reverse().find((p): p is string => typeof p === 'string' && !/^\d+$/.test(p));
  if (!last) return 'value';
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/ id$/, '')
    .replace(/ url$/, ' address');
  return words === 'id' ? 'item' : words || 'value';
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const missing = (input: unknown) =>
  input === undefined || input === null || input === '' || (typeof input === 'number' && Number.isNaN(input));

const KINDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'yes or no',
  string: 'text',
  date: 'a date',
  array: 'a list',
  tuple: 'a list',
  object: 'a set of values',
  record: 'a set of values',
};

const FORMATS: Record<string, string> = {
  email: 'a valid email address',
  url: 'a web address starting with https://',
  uuid: 'a valid identifier',
  datetime: 'a date and time',
  date: 'a date',
  time: 'a time',
  base64: 'valid encoded data',
};

const list = (values: readonly unknown[]) =>
  values.map((v) => (typeof v === 'string' ? `“${v}”` : String(v))).join(', ');

/** the sentence for an issue zod would otherwise word itself; undefined leaves zod's own (never reached in practice) */
export function humanMessage(issue: RawIssue): string | undefined {
  const field = fieldWords(issue.path);
  const The = capital(field);
  switch (issue.code) {
    case 'invalid_type': {
      if (missing(issue.input)) return `${The} is required.`;
      return `${The} must be ${KINDS[issue.expected] ?? 'given in the right form'}.`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return min <= 1 ? `${The} is required.` : `${The} must be at least ${min} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return min <= 1 ? `${The}: choose at least one.` : `${The}: choose at least ${min}.`;
      if (issue.origin === 'date') return `${The} is too early.`;
      return issue.inclusive === false ? `${The} must be more than ${min}.` : `${The} must be at least ${min}.`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `${The} may be at most ${max} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${capital(field)}: at most ${max} may be chosen.`;
      if (issue.origin === 'date') return `${The} is too late.`;
      if (issue.origin === 'file') return `${The} is too large.`;
      return issue.inclusive === false ? `${The} must be less than ${max}.` : `${The} may be at most ${max}.`;
    }
    case 'invalid_format':
      return `${The} must be ${FORMATS[issue.format] ?? 'in the right format'}.`;
    case 'not_multiple_of':
      return `${The} must be a multiple of ${issue.divisor}.`;
    case 'invalid_value':
      return missing(issue.input)
        ? `${The} is required.`
        : issue.values.length <= 6
          ? `${The} must be one of ${list(issue.values)}.`
          : `${The} is not one of the choices.`;
    case 'unrecognized_keys':
      return issue.keys.length === 1
        ? `“${issue.keys[0]}” is not a field this accepts.`
        : `These are not fields this accepts: ${list(issue.keys)}.`;
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return missing(issue.input) ? `${The} is required.` : `${The} is not valid.`;
    case 'custom':
      return `${The} is not valid.`;
    default:
      return undefined;
  }
}

z.config({ customError: humanMessage });

export { z };
export type { ZodType } from 'zod';
