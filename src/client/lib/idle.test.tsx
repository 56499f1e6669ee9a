import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { useWhenIdle, whenIdle } from './idle.ts';

function Shown({ name }: { name: string }) {
  return <p>{useWhenIdle(name) ? 'shown' : 'waiting'}</p>;
}

const idle = () => act(() => new Promise<void>((resolve) => whenIdle(resolve)));

describe('useWhenIdle', () => {
  it('is false on the first commit, true once the browser has been idle; a later mount with the same key starts at true', async () => {
    const first = render(<Shown name="menus" />);
    expect(screen.getByText('waiting')).toBeTruthy();
    await idle();
    expect(screen.getByText('shown')).toBeTruthy();
    first.unmount();
    render(<Shown name="menus" />);
    expect(screen.getByText('shown')).toBeTruthy();
  });

  it('an unmount before the idle moment cancels it', async () => {
    const view = render(<Shown name="other" />);
    view.unmount();
    await idle();
    render(<Shown name="other" />);
    expect(screen.getByText('waiting')).toBeTruthy();
  });
});

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
