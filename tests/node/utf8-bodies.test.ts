import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '#shared/constants';
import { users } from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

// A body whose bytes are not UTF-8 is refused with a 400 that says so, whatever its type, and nothing
// is stored; before, each bad byte became U+FFFD and was saved as if the member had typed it.

let t: TestApp;
let member: { user: { id: number }; client: TestClient };
beforeAll(async () => {
  t = await createTestApp();
  member = await t.signedIn();
});
afterAll(async () => t?.close());

const statusOf = async () =>
  (await t.app.deps.db.select({ s: users.status }).from(users).where(eq(users.id, member.user.id)))[0]!.s;
const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** POST /status (the member's status line, stored as sent) with the status text as raw bytes in each body type */
const BODIES: Record<string, (text: Buffer) => { type: string; payload: Buffer }> = {
  JSON: (text) => ({ type: 'application/json', payload: bytes('{"status":"', [...text], '"}') }),
  'JSON with charset': (text) => ({
    type: 'application/json; charset=utf-8',
    payload: bytes('{"status":"', [...text], '"}'),
  }),
  form: (text) => ({ type: 'application/x-www-form-urlencoded', payload: bytes('status=', [...text]) }),
  multipart: (text) => ({
    type: 'multipart/form-data; boundary=utf8test',
    payload: bytes(
      '--utf8test\r\nContent-Disposition: form-data; name="status"\r\n\r\n',
      [...text],
      '\r\n--utf8test--\r\n',
    ),
  }),
};
const send = (kind: string, text: Buffer) => {
  const body = BODIES[kind]!(text);
  return member.client.request('POST', '/status', body.payload, { headers: { 'content-type': body.type } });
};

const INVALID: Array<[string, Buffer]> = [
  ['0xC3 0x28 (a lead byte without its continuation)', bytes('drums ', [0xc3, 0x28], ' today')],
  ['0xFF (never valid in UTF-8)', bytes('drums ', [0xff])],
  ['a sequence cut off at the end', bytes('drums ', [0xe2, 0x82])],
  ['an overlong encoding of "/"', bytes([0xc0, 0xaf])],
  ['an encoded surrogate', bytes([0xed, 0xa0, 0x80])],
];

describe('a body that is not valid UTF-8', () => {
  it.each(Object.keys(BODIES).flatMap((kind) => INVALID.map(([label, text]) => [kind, label, text] as const)))(
    '%s with %s: 400, nothing stored',
    async (kind, _label, text) => {
      await member.client.post('/status', { status: 'before' });
      const res = await send(kind, text);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ message: MESSAGES.bodyNotUtf8 });
      expect(await statusOf()).toBe('before');
    },
  );

  it("a multipart file name that is not UTF-8 is refused too; a file's own bytes are not text and are not checked", async () => {
    const upload = (filename: number[]) =>
      member.client.request(
        'POST',
        '/status',
        bytes(
          '--u\r\nContent-Disposition: form-data; name="status"\r\n\r\nok\r\n--u\r\nContent-Disposition: form-data; name="f"; filename="',
          filename,
          '"\r\nContent-Type: application/octet-stream\r\n\r\n',
          [0xff, 0xfe, 0xc3, 0x28],
          '\r\n--u--\r\n',
        ),
        { headers: { 'content-type': 'multipart/form-data; boundary=u' } },
      );
    expect((await upload([0x6b, 0xff, 0x2e, 0x70, 0x6e, 0x67])).statusCode).toBe(400);
    expect((await upload([...Buffer.from('kit.png')])).statusCode).toBe(200);
  });

  it('a text/plain body is checked as well', async () => {
    const res = await member.client.request('POST', '/status', bytes('status ', [0xff]), {
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: MESSAGES.bodyNotUtf8 });
  });
});

describe('valid UTF-8 still goes through', () => {
  const TEXTS = [
    'Paradiddles at 90 🥁🔥',
    'תרגול יומי: פרדידל',
    'تمرين الطبل اليومي',
    'Schlagzeug übt täglich — ½ Stunde',
    '𝄞 a replacement character typed on purpose: \uFFFD',
  ];
  it.each(Object.keys(BODIES).flatMap((kind) => TEXTS.map((text) => [kind, text] as const)))(
    '%s: %s',
    async (kind, text) => {
      // a form encodes its text as the browser does (percent-escapes of the UTF-8 bytes)
      const res =
        kind === 'form'
          ? await member.client.post('/status', { status: text }, { form: true })
          : await send(kind, Buffer.from(kind.startsWith('JSON') ? JSON.stringify(text).slice(1, -1) : text, 'utf8'));
      // the one text multipart cannot tell from a bad byte (the module's rules in docs/product/bad-input.md)
      if (kind === 'multipart' && text.includes('\uFFFD')) return expect(res.statusCode).toBe(400);
      expect(res.statusCode, res.body).toBe(200);
      expect(await statusOf()).toBe(text);
    },
  );

  it('raw UTF-8 bytes in a form body are read as UTF-8', async () => {
    const res = await send('form', Buffer.from('Paradiddles 🥁 תרגול', 'utf8'));
    expect(res.statusCode).toBe(200);
    expect(await statusOf()).toBe('Paradiddles 🥁 תרגול');
  });

  it('a UTF-8 character split across two chunks of the body is read whole', async () => {
    // inject sends a stream in the chunks it is given
    const { Readable } = await import('node:stream');
    const whole = bytes('{"status":"a🥁b"}');
    const cut = whole.indexOf(0xf0) + 2;
    const res = await t.app.inject({
      method: 'POST',
      url: '/status',
      headers: {
        'content-type': 'application/json',
        'content-length': String(whole.length),
        cookie: [...member.client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': member.client.csrfToken,
      },
      payload: Readable.from([whole.subarray(0, cut), whole.subarray(cut)]),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await statusOf()).toBe('a🥁b');
  });
});
