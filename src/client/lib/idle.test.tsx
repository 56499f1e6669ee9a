import { describe, expect, it } from 'vitest';
import { whenIdle } from './idle.ts';

describe('whenIdle', () => {
  it('runs the work later, not now, and not once cancelled', async () => {
    const ran: string[] = [];
    whenIdle(() => ran.push('kept'));
    const cancel = whenIdle(() => ran.push('cancelled'));
    cancel();
    expect(ran).toEqual([]);
    await new Promise<void>((resolve) => whenIdle(resolve));
    expect(ran).toEqual(['kept']);
  });
});
