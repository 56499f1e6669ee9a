import { isUtf8 } from 'node:buffer';
import type { z } from '#shared/zod';
import { MalformedEventError } from './provider.ts';

/**
 * Reading a webhook's content once its signature is known to be good. Whatever cannot be read is a
 * MalformedEventError naming what is wrong, the event's id and type when those at least could be read,
 * and the body's outline (its keys, never its values: events carry names, addresses and emails).
 */

const OUTLINE_MAX = 500;

/** `{id, type, data: {object: {id, amount}}}`: the keys of a JSON value, three levels deep, no values */
export function outline(value: unknown, depth = 0): string {
  if (Array.isArray(value)) return `[${value.length} item${value.length === 1 ? '' : 's'}]`;
  if (!value || typeof value !== 'object')
    return typeof value === 'string' ? 'text' : value === null ? 'null' : typeof value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (depth >= 3) return entries.length ? '{…}' : '{}';
  const inner = entries.map(([k, v]) => (v && typeof v === 'object' ? `${k}: ${outline(v, depth + 1)}` : k)).join(', ');
  const text = `{${inner}}`;
  return depth === 0 && text.length > OUTLINE_MAX ? `${text.slice(0, OUTLINE_MAX - 1)}…` : text;
}

const text = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 200) : null);

/** the signed body as JSON: bytes that are not UTF-8, or not JSON, cannot be an event */
export function eventJson(rawBody: Buffer): unknown {
  if (!isUtf8(rawBody)) throw new MalformedEventError('the body is not UTF-8 text', null, null, null);
  try {
    return JSON.parse(rawBody.toString('utf8')) as unknown;
  } catch {
    throw new MalformedEventError('the body is not JSON', null, null, null);
  }
}

const A: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  int: 'a whole number',
};

/** a zod issue as a sentence an admin can act on: "data.object is missing", "resource.amount.value is not text" */
function describe(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.map(String).join('.') : 'the event';
  if (issue.code === 'invalid_type')
    return issue.input === undefined ? `${where} is missing` : `${where} is not ${A[issue.expected] ?? issue.expected}`;
  return `${where}: ${issue.message}`;
}

/**
 * The event `json` read with `schema` (the whole event, so a problem is named by its full path), or a
 * MalformedEventError naming the first thing wrong, with the event's `id` and `type` as the caller
 * could read them from the JSON.
 */
export function readEvent<S extends z.ZodType>(schema: S, json: unknown, id: unknown, type: unknown): z.output<S> {
  const parsed = schema.safeParse(json, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw new MalformedEventError(describe(parsed.error.issues[0]!), text(id), text(type), outline(json));
}

/** a JSON object's property, if `json` is an object (to name an event that is otherwise unreadable) */
export const field = (json: unknown, key: string): unknown =>
  json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>)[key] : undefined;

/** the event's id and type as far as they can be read at all (naming a delivery that failed for another reason) */
export function peekEvent(rawBody: Buffer): { id: string | null; type: string | null } {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8')) as unknown;
  } catch {
    return { id: null, type: null };
  }
  return { id: text(field(json, 'id')), type: text(field(json, 'type') ?? field(json, 'event_type')) };
}
