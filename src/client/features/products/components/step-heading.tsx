import clsx from 'clsx';
import { CircleCheckBig } from 'lucide-react';

/** A checkout step's numbered heading; a done step shows a check instead of its number. */
export function StepHeading({ n, title, done }: { n: number; title: string; done?: boolean }) {
  return (
    <h2 className="flex items-center gap-3 text-xl font-bold">
      <span
        aria-hidden
        className={clsx(
          'flex size-8 items-center justify-center rounded-full text-base font-bold',
          done ? 'bg-success text-white' : 'bg-accent text-accent-fg',
        )}
      >
        {done ? <CircleCheckBig className="size-5" /> : n}
      </span>
      {title}
    </h2>
  );
}
