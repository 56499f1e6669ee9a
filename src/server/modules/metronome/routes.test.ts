import { afterAll, beforeAll, expect, it } from 'vitest';
import { PLAYLIST, settingsPart, START_UP } from '#shared/metronome';
import { createTestApp, type TestApp } from '#test/api-harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const settings = { ...settingsPart(START_UP), bpm: 96 };

it('a member saves, lists, renames, favourites and deletes their own settings', async () => {
  const me = await t.signedIn();
  const created = await me.client.post('/api/metronome_settings/', { name: 'Paradiddles warm-up', settings });
  expect(created.statusCode).toBe(201);
  const entry = created.json().data;
  expect(entry).toMatchObject({ name: 'Paradiddles warm-up', fav: false, bpm: 96, accents: [3, 2, 2, 2] });
  await me.client.post('/api/metronome_settings/', { name: 'Blast beats', settings: { ...settings, bpm: 220 } });

  const renamed = await me.client.request('PATCH', `/api/metronome_settings/${entry.id}`, {
    name: 'Singles',
    fav: true,
  });
  expect(renamed.json().data).toMatchObject({ id: entry.id, name: 'Singles', fav: true, bpm: 96 });
  // favourites first, then by name
  expect((await me.client.get('/api/metronome_settings/')).json().data.map((e: { name: string }) => e.name)).toEqual([
    'Singles',
    'Blast beats',
  ]);

  expect((await me.client.request('DELETE', `/api/metronome_settings/${entry.id}`)).json()).toEqual({ deleted: true });
  expect((await me.client.get('/api/metronome_settings/')).json().data).toHaveLength(1);
});

it("another member's entries cannot be read, changed or deleted; visitors are asked to sign in", async () => {
  const me = await t.signedIn();
  const other = await t.signedIn();
  const { id } = (await me.client.post('/api/metronome_settings/', { name: 'Mine', settings })).json().data;
  expect((await other.client.get('/api/metronome_settings/')).json().data.map((e: { name: string }) => e.name)).toEqual(
    [START_UP.name],
  );
  expect((await other.client.request('PATCH', `/api/metronome_settings/${id}`, { name: 'Taken' })).statusCode).toBe(
    404,
  );
  expect((await other.client.request('DELETE', `/api/metronome_settings/${id}`)).statusCode).toBe(404);
  expect((await me.client.get('/api/metronome_settings/')).json().data[0].name).toBe('Mine');
  expect((await (await t.client()).get('/api/metronome_settings/')).statusCode).toBe(401);
  expect((await me.client.post('/api/metronome_settings/', { name: 'x', settings }, { csrf: false })).statusCode).toBe(
    419,
  );
});

it('refuses bad settings with the field at fault and stores nothing', async () => {
  const me = await t.signedIn();
  const bad = async (body: Record<string, unknown>) => (await me.client.post('/api/metronome_settings/', body)).json();
  expect((await bad({ name: ' ', settings })).errors.name[0]).toBe(PLAYLIST.nameRequired);
  expect((await bad({ name: 'x', settings: { ...settings, bpm: 401 } })).errors['settings.bpm'][0]).toBe(
    'The bpm may not be greater than 400.',
  );
  expect((await bad({ name: 'x', settings: { ...settings, note: 3 } })).errors['settings.note'][0]).toBe(
    'The note value must be 2, 4 or 8.',
  );
  expect((await bad({ name: 'x', settings: { ...settings, beats: 5 } })).errors['settings.accents'][0]).toBe(
    'There must be one accent per beat.',
  );
  expect(
    (await bad({ name: 'x', settings: { ...settings, speed: { ...settings.speed, step: 100 } } })).errors[
      'settings.speed.step'
    ][0],
  ).toBe('The step may not be greater than 99.');
  expect((await me.client.get('/api/metronome_settings/')).json().data.map((e: { name: string }) => e.name)).toEqual([
    START_UP.name,
  ]);
});

it("a new member's list starts with the default 'Start Up' entry, once: deleted, it stays deleted", async () => {
  const me = await t.signedIn();
  const first = (await me.client.get('/api/metronome_settings/')).json().data;
  expect(first).toHaveLength(1);
  expect(first[0]).toMatchObject({ name: 'Start Up', fav: false, bpm: 120, beats: 4, note: 4, subdiv: 0 });
  // read again (another tab): still one
  expect((await me.client.get('/api/metronome_settings/')).json().data).toHaveLength(1);
  expect((await me.client.request('DELETE', `/api/metronome_settings/${first[0].id}`)).statusCode).toBe(200);
  expect((await me.client.get('/api/metronome_settings/')).json().data).toEqual([]);
});
