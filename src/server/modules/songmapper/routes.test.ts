import { afterAll, beforeAll, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { DEFAULT_TEMPLATE, emptySong, SONG, type Song } from '#shared/songmapper';
import { createTestApp, type TestApp } from '#test/api-harness';
import { fontRuns } from './pdf.ts';
import { pdfFileName } from './routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const song = (over: Partial<Song> = {}): Song => ({ ...DEFAULT_TEMPLATE, title: 'Back in Black', bpm: '94', ...over });

async function pdfText(body: Buffer) {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const { text } = await extractText(pdf, { mergePages: true });
  return { text, pages: pdf.numPages };
}

it('first save answers a random id; later saves update the same song; the list is mine only', async () => {
  const me = await t.signedIn();
  const other = await t.signedIn();
  const first = await me.client.post('/songmapper', { song: song(), id: null });
  expect(first.statusCode).toBe(200);
  const { id } = first.json();
  expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  const again = await me.client.post('/songmapper', { song: song({ bpm: '96' }), id });
  expect(again.json()).toEqual({ id });
  const got = (await me.client.get(`/api/songmapper/${id}`)).json().data;
  expect(got.song.bpm).toBe('96');
  expect(got.song.sections).toHaveLength(DEFAULT_TEMPLATE.sections.length);
  const list = (await me.client.get('/api/songmapper')).json().data;
  expect(list).toEqual([
    expect.objectContaining({ id, title: 'Back in Black', bpm: '96', sections: 9, measures: 104 }),
  ]);
  expect((await other.client.get('/api/songmapper')).json().data).toEqual([]);

  // a second song gets another id (not a sequence)
  const second = (await me.client.post('/songmapper', { song: song({ title: 'Hells Bells' }) })).json().id;
  expect(second).not.toBe(id);
});

it('another member can neither read, overwrite nor delete my song; visitors are asked to sign in', async () => {
  const me = await t.signedIn();
  const other = await t.signedIn();
  const { id } = (await me.client.post('/songmapper', { song: song() })).json();
  expect((await other.client.get(`/api/songmapper/${id}`)).statusCode).toBe(404);
  expect((await other.client.post('/songmapper', { song: song({ title: 'Hijacked' }), id })).statusCode).toBe(404);
  expect((await other.client.post(`/songmapper/${id}`, { _method: 'delete' })).statusCode).toBe(404);
  expect((await me.client.get(`/api/songmapper/${id}`)).json().data.song.title).toBe('Back in Black');

  const visitor = await t.client();
  expect((await visitor.get('/api/songmapper')).statusCode).toBe(401);
  expect((await visitor.post('/songmapper', { song: song() })).statusCode).toBe(401);
  expect((await visitor.get('/songmapper/templates')).statusCode).toBe(401);
});

it('refuses a bad song with the field at fault and saves nothing', async () => {
  const me = await t.signedIn();
  const bad = async (s: unknown) => (await me.client.post('/songmapper', { song: s })).json();
  expect((await bad(song({ bpm: '12345' }))).errors['song.bpm'][0]).toBe('The bpm may not be greater than 4 digits.');
  expect((await bad(song({ bpm: '12a' }))).errors['song.bpm'][0]).toBe('The bpm may only contain digits.');
  expect((await bad(song({ sections: [] }))).errors['song.sections'][0]).toBe('A song keeps at least one section.');
  expect((await bad({ ...song(), sections: 'x' })).errors['song.sections'][0]).toBe('The sections must be a list.');
  expect((await me.client.post('/songmapper', { song: song(), id: '../../etc/passwd' })).statusCode).toBe(422);
  expect((await me.client.get('/api/songmapper')).json().data).toEqual([]);
});

it('deletes with _method: delete and answers where to go; the share link then is gone', async () => {
  const me = await t.signedIn();
  const { id } = (await me.client.post('/songmapper', { song: song() })).json();
  const res = await me.client.post(`/songmapper/${id}`, { _method: 'delete' });
  expect(res.json()).toEqual({ redirect: '/songmapper' });
  expect((await me.client.get(`/api/songmapper/${id}`)).statusCode).toBe(404);
  expect((await (await t.client()).get(`/songmapper/pdf/${id}`)).statusCode).toBe(404);
  // CSRF: a cross-site form cannot delete
  const { id: id2 } = (await me.client.post('/songmapper', { song: song() })).json();
  expect((await me.client.post(`/songmapper/${id2}`, { _method: 'delete' }, { csrf: false })).statusCode).toBe(419);
  expect((await me.client.get(`/api/songmapper/${id2}`)).statusCode).toBe(200);
});

it('templates: a title is needed, the same title replaces, and they are mine only', async () => {
  const me = await t.signedIn();
  const other = await t.signedIn();
  const none = await me.client.post('/songmapper/templates', { title: '  ', song: song() });
  expect(none.statusCode).toBe(422);
  expect(none.json().errors.title[0]).toBe(SONG.templateTitleRequired);
  expect((await me.client.get('/songmapper/templates')).json()).toEqual({ templates: [] });

  const saved = (await me.client.post('/songmapper/templates', { title: 'Punk', song: song({ bpm: '180' }) })).json()
    .templates;
  expect(saved).toEqual([expect.objectContaining({ title: 'Punk', song: expect.objectContaining({ bpm: '180' }) })]);
  const replaced = (await me.client.post('/songmapper/templates', { title: 'Punk', song: song({ bpm: '200' }) })).json()
    .templates;
  expect(replaced).toHaveLength(1);
  expect(replaced[0].song.bpm).toBe('200');
  expect((await other.client.get('/songmapper/templates')).json().templates).toEqual([]);
  expect((await other.client.request('DELETE', `/songmapper/templates/${replaced[0].id}`)).statusCode).toBe(404);
  expect((await me.client.request('DELETE', `/songmapper/templates/${replaced[0].id}`)).json()).toEqual({
    templates: [],
  });
});

it('the share link is a real PDF anyone with the link can read, with every section', async () => {
  const me = await t.signedIn();
  const { id } = (
    await me.client.post('/songmapper', { song: song({ title: 'Motörhead – Ace of Spades', bpm: '140' }) })
  ).json();
  const res = await (await t.client()).get(`/songmapper/pdf/${id}`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.headers['content-disposition']).toBe('inline; filename="Motorhead-Ace-of-Spades.pdf"');
  const { text } = await pdfText(res.rawPayload);
  expect(text).toContain('Motörhead – Ace of Spades');
  expect(text).toContain('140 bpm');
  for (const name of ['Intro', 'Pre-Chorus', 'Bridge', 'Outro', 'Crash / ride', 'Rim click'])
    expect(text).toContain(name);
  expect(text).not.toContain(me.user.name);

  // long songs flow onto more pages with the header again
  const many = {
    ...emptySong(),
    title: 'Prog epic',
    sections: Array.from({ length: 80 }, (_, i) => ({ ...DEFAULT_TEMPLATE.sections[i % 9]!, measures: String(i + 1) })),
  };
  const { id: longId } = (await me.client.post('/songmapper', { song: many })).json();
  const long = await pdfText((await (await t.client()).get(`/songmapper/pdf/${longId}`)).rawPayload);
  expect(long.pages).toBeGreaterThan(1);
  expect(long.text.match(/MEASURES/g)!.length).toBe(long.pages);

  expect((await (await t.client()).get('/songmapper/pdf/AAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
  expect((await (await t.client()).get('/songmapper/pdf/1')).statusCode).toBe(422);
});

it('fonts: each run of text takes the subset that covers it; uncovered characters print as ?', () => {
  expect(fontRuns('Ace – Ωmega Привет')).toEqual([
    { subset: 'latin', text: 'Ace – ' },
    { subset: 'greek', text: 'Ω' },
    { subset: 'latin', text: 'mega ' },
    { subset: 'cyrillic', text: 'Привет' },
  ]);
  expect(fontRuns('🥁 鼓')).toEqual([{ subset: 'latin', text: '? ?' }]);
  expect(pdfFileName('')).toBe('song-map.pdf');
  expect(pdfFileName('"; rm -rf /')).toBe('rm-rf.pdf');
});
