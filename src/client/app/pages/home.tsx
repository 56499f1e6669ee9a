import { Drum, Gauge, MessagesSquare, Route as RouteIcon, Sparkles, Timer } from 'lucide-react';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { openModal } from '#client/components/ui/modal-events.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { REGISTER_MODAL } from '#client/features/auth/register.ts';

const FEATURES = [
  {
    icon: RouteIcon,
    title: 'A path, not a pile of videos',
    text: 'Take the placement questionnaire and follow five stages with checklists, from your first groove to playing for the song.',
  },
  {
    icon: Timer,
    title: 'Practice tools built for drummers',
    text: 'A sample-accurate metronome with speed training, a practice journal and timer, and a song mapper for every chart.',
  },
  {
    icon: MessagesSquare,
    title: 'A community that plays',
    text: 'Forums, lesson discussions and live shows with chat. Ask, share, and get feedback from drummers and staff.',
  },
  {
    icon: Sparkles,
    title: 'One-to-one mentorship',
    text: 'A mentor builds your practice plan week by week and reviews your videos.',
  },
];

export function HomePage() {
  const signedIn = pageConfig().authId !== null;
  return (
    <div className="flex flex-col gap-16">
      <section className="grid items-center gap-10 lg:grid-cols-2">
        <div className="flex flex-col gap-6">
          <p className="inline-flex w-fit items-center gap-2 rounded-full bg-accent-soft px-3 py-1 text-sm font-semibold text-accent-strong">
            <Drum aria-hidden className="size-4" /> The online drum academy
          </p>
          <h1 className="text-4xl font-black tracking-tight sm:text-6xl">Become the drummer you hear in your head.</h1>
          <p className="max-w-xl text-lg text-muted sm:text-xl">
            Structured lessons, a staged learning path, practice tools and a community of drummers, on your phone at the
            kit or your laptop beside it.
          </p>
          <div className="flex flex-wrap gap-3">
            {signedIn ? (
              <a href="/dashboard" className={buttonClass('primary')}>
                Go to your dashboard
              </a>
            ) : (
              <Button onClick={() => openModal(REGISTER_MODAL)}>Start learning free</Button>
            )}
            <a href="/metronome" className={buttonClass('secondary')}>
              <Gauge aria-hidden className="size-5" /> Try the metronome
            </a>
          </div>
        </div>
        <div aria-hidden className="relative mx-auto aspect-square w-full max-w-md">
          <div className="absolute inset-6 rounded-full bg-gradient-to-br from-accent to-accent-strong opacity-90" />
          <div className="absolute inset-16 rounded-full border-8 border-white/30" />
          <div className="absolute inset-x-[22%] bottom-[22%] flex items-end justify-between">
            {[3, 2, 2, 2].map((level, i) => (
              <span key={i} className="block w-[12%] rounded-md bg-white/85" style={{ height: 18 + level * 18 }} />
            ))}
          </div>
          <p className="absolute left-1/2 top-[38%] -translate-x-1/2 text-6xl font-black text-white tabular">120</p>
        </div>
      </section>
      <section aria-labelledby="what-you-get" className="flex flex-col gap-6">
        <h2 id="what-you-get" className="text-2xl font-extrabold tracking-tight sm:text-3xl">
          What you get
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          {FEATURES.map((f) => (
            <div key={f.title} className="flex gap-4 rounded-2xl border border-line bg-surface p-6">
              <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent-strong">
                <f.icon aria-hidden className="size-6" />
              </span>
              <div>
                <h3 className="text-lg font-bold">{f.title}</h3>
                <p className="mt-1 text-muted">{f.text}</p>
              </div>
            </div>
          ))}
        </div>
      </section>
    </div>
  );
}
