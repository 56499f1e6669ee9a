import { describe, expect, it } from 'vitest';
import { OwnWrites, walPosition } from './own-writes.ts';

// The rules of a member's write mark (lib/own-writes.ts); the two-process proof is
// tests/node/own-writes.test.ts.
function setup(secret = 's3cret') {
  let position = 0n;
  let syncs = 0;
  let finish: () => void = () => undefined;
  const w = new OwnWrites({
    secret,
    position: async () => position,
    sync: () => {
      syncs++;
      return new Promise<void>((r) => (finish = r));
    },
  });
  return {
    w,
    at: (p: bigint) => (position = p),
    syncs: () => syncs,
    finishSync: () => finish(),
  };
}

describe('walPosition', () => {
  it("reads PostgreSQL's X/Y form as one ordered number", () => {
    expect(walPosition('0/16B3748')).toBe(0x16b3748n);
    expect(walPosition('1/0')).toBe(1n << 32n);
    expect(walPosition('1/0') > walPosition('0/FFFFFFFF')).toBe(true);
    expect(() => walPosition('nonsense')).toThrow();
  });
});

describe('OwnWrites', () => {
  it('a mark made elsewhere is behind until a marker at or past it is heard, then memory serves again', async () => {
    const writer = setup();
    const reader = setup();
    writer.at(500n);
    const mark = await writer.w.mark();
    expect(reader.w.behind(mark)).toBe(true);
    expect(reader.syncs()).toBe(1);
    reader.w.heardThrough(499n);
    expect(reader.w.behind(mark)).toBe(true);
    reader.w.heardThrough(500n);
    expect(reader.w.behind(mark)).toBe(false);
    // positions only move on
    reader.w.heardThrough(10n);
    expect(reader.w.behind(mark)).toBe(false);
  });

  it("a process's own marks never hold it back: it hears its writes as it makes them", async () => {
    const one = setup();
    one.at(900n);
    expect(one.w.behind(await one.w.mark())).toBe(false);
    expect(one.syncs()).toBe(0);
  });

  it('a mark that is not signed with the secret, or is not a mark, is ignored', async () => {
    const other = setup('another secret');
    other.at(700n);
    const reader = setup();
    expect(reader.w.behind(await other.w.mark())).toBe(false);
    expect(reader.w.behind(undefined)).toBe(false);
    expect(reader.w.behind('x.y.z')).toBe(false);
    expect(reader.w.behind('abc.99999999999999999999999.sig')).toBe(false);
    expect(reader.syncs()).toBe(0);
  });

  it('one marker at a time: requests meanwhile ask for one more after it, not one each', async () => {
    const writer = setup();
    const reader = setup();
    writer.at(100n);
    const mark = await writer.w.mark();
    for (let i = 0; i < 5; i++) expect(reader.w.behind(mark)).toBe(true);
    expect(reader.syncs()).toBe(1);
    reader.finishSync();
    await new Promise((r) => setImmediate(r));
    expect(reader.syncs()).toBe(2);
    reader.finishSync();
    await new Promise((r) => setImmediate(r));
    expect(reader.syncs()).toBe(2);
  });
});
