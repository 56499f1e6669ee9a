import { useId } from 'react';
import type { TempoSeries } from '../plan-edit.ts';

const W = 320;
const H = 150;
const PAD = { top: 14, right: 14, bottom: 22, left: 36 };

/**
 * A small hand-drawn line chart of one exercise's tempo progress: x = each time the exercise appears
 * in the plan, y = the best ending tempo logged that time; a dashed line marks the goal. No chart
 * library: a few SVG elements with a title and a description for screen readers.
 */
export function TempoChart({ series }: { series: TempoSeries }) {
  const id = useId();
  const logged = series.points.map((p) => p.tempo).filter((t): t is number => t !== null);
  const values = series.goal !== null ? [...logged, series.goal] : logged;
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 20) {
    const mid = (hi + lo) / 2;
    lo = mid - 10;
    hi = mid + 10;
  }
  lo = Math.max(0, Math.floor((lo - 5) / 5) * 5);
  hi = Math.ceil((hi + 5) / 5) * 5;
  const n = series.points.length;
  const x = (i: number) =>
    PAD.left + (n === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (n - 1));
  const y = (v: number) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const drawn = series.points
    .map((p, i) => ({ ...p, i }))
    .filter((p): p is { label: string; tempo: number; i: number } => p.tempo !== null);
  const path = drawn.map((p, k) => `${k === 0 ? 'M' : 'L'}${x(p.i).toFixed(1)},${y(p.tempo).toFixed(1)}`).join(' ');
  const latest = drawn.at(-1)?.tempo;
  const description = `Best ending tempo each time you played it: ${series.points.map((p) => (p.tempo === null ? 'not logged' : `${p.tempo} bpm`)).join(', ')}.${series.goal !== null ? ` Goal ${series.goal} bpm.` : ''}`;

  return (
    <figure className="rounded-xl border border-line bg-surface-2 p-3" data-testid="tempo-chart">
      <figcaption className="mb-1 flex items-baseline justify-between gap-2">
        <span className="truncate font-semibold" title={series.title}>
          {series.title}
        </span>
        {latest !== undefined ? <span className="tabular shrink-0 text-sm text-muted">latest {latest} bpm</span> : null}
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        className="h-auto w-full text-accent"
      >
        <title id={`${id}-t`}>{`${series.title}: tempo progress`}</title>
        <desc id={`${id}-d`}>{description}</desc>
        {[lo, (lo + hi) / 2, hi].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="var(--line)" strokeWidth="1" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill="var(--muted)">
              {Math.round(v)}
            </text>
          </g>
        ))}
        {series.goal !== null ? (
          <g data-testid="tempo-goal">
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(series.goal)}
              y2={y(series.goal)}
              stroke="var(--success)"
              strokeWidth="1.5"
              strokeDasharray="5 4"
            />
            <text x={W - PAD.right} y={y(series.goal) - 4} textAnchor="end" fontSize="11" fill="var(--success)">
              goal {series.goal}
            </text>
          </g>
        ) : null}
        <path
          d={path}
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinejoin="round"
          strokeLinecap="round"
        />
        {drawn.map((p) => (
          <circle key={p.i} cx={x(p.i)} cy={y(p.tempo)} r="4" fill="currentColor">
            <title>{`${p.label}: ${p.tempo} bpm`}</title>
          </circle>
        ))}
        {series.points.map((p, i) => (
          <text key={i} x={x(i)} y={H - 6} textAnchor="middle" fontSize="10" fill="var(--muted)">
            {i + 1}
          </text>
        ))}
      </svg>
    </figure>
  );
}
