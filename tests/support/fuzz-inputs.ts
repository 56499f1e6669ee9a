import fc from 'fast-check';

/** The field names a zod object schema declares (to mix real keys into generated input). */
export function schemaKeys(schema: unknown): string[] {
  const s = schema as
    { shape?: Record<string, unknown>; def?: { in?: unknown; schema?: unknown; innerType?: unknown } } | undefined;
  if (!s) return [];
  if (s.shape && typeof s.shape === 'object') return Object.keys(s.shape);
  const inner = s.def?.in ?? s.def?.schema ?? s.def?.innerType;
  return inner ? schemaKeys(inner) : [];
}

const HOSTILE_STRINGS = [
  '',
  ' ',
  'x'.repeat(100_000),
  '\u0000',
  '\uD800',
  '\u202Eevil',
  '𝄞🥁'.repeat(50),
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%00',
  '__proto__',
  'constructor',
  'NaN',
  '-1',
  '1e309',
  '99999999999999999999',
  'true',
  'null',
  '[]',
  '{}',
];

/** any JSON value, with the values that break naive code over-represented */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<unknown>(
      ...HOSTILE_STRINGS,
      0,
      -1,
      1,
      2_147_483_648,
      -2_147_483_649,
      Number.MAX_SAFE_INTEGER,
      1e308,
      -1e308,
      0.5,
      true,
      false,
      null,
    ),
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype')),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

/** an object holding some of the route's own fields (with hostile values) and some strangers */
export const hostileObject = (keys: string[]) =>
  fc
    .tuple(
      keys.length ? fc.subarray(keys) : fc.constant<string[]>([]),
      fc.array(hostileValue, { minLength: keys.length, maxLength: keys.length }),
      fc.dictionary(
        fc.oneof(
          fc.string({ maxLength: 12 }),
          fc.constantFrom('__proto__', 'constructor', '_method', 'isAdmin', 'role', 'user_id'),
        ),
        hostileValue,
        { maxKeys: 3 },
      ),
    )
    .map(([chosen, values, extra]) => {
      const out: Record<string, unknown> = { ...extra };
      chosen.forEach((k, i) => (out[k] = values[i]));
      return out;
    });

export interface FuzzBody {
  contentType: string | null;
  payload: string | Buffer | undefined;
  label: string;
}

const RAW_BODIES: FuzzBody[] = [
  {
    contentType: 'application/json',
    payload: '{"__proto__":{"isAdmin":true,"role":"admin"}}',
    label: 'JSON __proto__',
  },
  {
    contentType: 'application/json',
    payload: '{"constructor":{"prototype":{"isAdmin":true}}}',
    label: 'JSON constructor.prototype',
  },
  { contentType: 'application/json', payload: '{"a":', label: 'truncated JSON' },
  { contentType: 'application/json', payload: '', label: 'empty JSON' },
  { contentType: 'application/json', payload: '[1,2,3]', label: 'array for an object' },
  { contentType: 'application/json', payload: '"just a string"', label: 'string for an object' },
  { contentType: 'application/json', payload: '['.repeat(5000), label: 'deep nesting' },
  { contentType: 'text/plain', payload: 'hello', label: 'text/plain' },
  { contentType: 'application/xml', payload: '<a/>', label: 'xml' },
  {
    contentType: 'application/x-www-form-urlencoded',
    payload: '__proto__[isAdmin]=1&a[b][c]=d&page=-1&id[]=1',
    label: 'form with brackets',
  },
  { contentType: 'application/x-www-form-urlencoded', payload: '%E0%A4%A', label: 'form with a broken escape' },
  {
    contentType: 'multipart/form-data; boundary=xyz',
    payload:
      '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    label: 'truncated multipart',
  },
  { contentType: 'multipart/form-data', payload: 'no boundary', label: 'multipart without boundary' },
  { contentType: null, payload: Buffer.from([0xff, 0xfe, 0x00, 0x01]), label: 'no content type, binary' },
  {
    contentType: 'application/json',
    payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    label: 'JSON that is not UTF-8',
  },
  {
    contentType: 'application/x-www-form-urlencoded',
    payload: Buffer.from([0x61, 0x3d, 0xff]),
    label: 'form that is not UTF-8',
  },
];

/** a request body: mostly JSON objects built from the route's fields, sometimes a hostile raw body */
export const hostileBody = (keys: string[]): fc.Arbitrary<FuzzBody> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: hostileObject(keys).map((o) => ({
        contentType: 'application/json',
        payload: JSON.stringify(o),
        label: 'JSON object',
      })),
    },
    {
      weight: 1,
      arbitrary: hostileValue.map((v) => ({
        contentType: 'application/json',
        payload: JSON.stringify(v) ?? 'null',
        label: 'JSON value',
      })),
    },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
    {
      weight: 1,
      arbitrary: hostileObject(keys).map((o) => ({
        contentType: 'application/x-www-form-urlencoded',
        payload: new URLSearchParams(
          Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]),
        ).toString(),
        label: 'form',
      })),
    },
  );

/** a query string from the route's own parameters (and strangers), repeated keys included */
export const hostileQuery = (keys: string[]) =>
  fc.oneof(
    hostileObject(keys).map((o) =>
      new URLSearchParams(
        Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]),
      ).toString(),
    ),
    fc.constantFrom(
      'page=1&page=2',
      'page[]=1',
      'q=%ZZ',
      'sort=__proto__&dir=sideways',
      `q=${'a'.repeat(5000)}`,
      'per_page=1e9',
      'to=//evil.test',
    ),
  );

/** a value for a path parameter */
export const hostileParam = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '2147483648',
    '99999999999999999999',
    'abc',
    '%2e%2e%2f',
    '..',
    '%00',
    'null',
    '__proto__',
    'x'.repeat(300),
    '%F0%9F%A5%81',
  ),
  fc.integer({ min: 1, max: 50 }).map(String),
  fc.string({ maxLength: 20 }).map((s) => encodeURIComponent(s) || '1'),
);
