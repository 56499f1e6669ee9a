import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { BARRIER_MESSAGES, BARRIER_REPORT } from '#shared/accessibility';
import { post } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FieldMessage, FormError, inputClass } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Card, PageTitle } from './common.tsx';

type FieldName = 'page' | 'description' | 'email';
const LABELS: Record<FieldName, string> = {
  page: 'Where did it happen?',
  description: 'What happened?',
  email: 'Your email address (optional)',
};

const reviewed = new Date(`${BARRIER_REPORT.reviewed}T12:00:00Z`).toLocaleDateString('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-2xl font-bold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The barrier report form: anyone can send one, signed in or not. Its errors are shown the way every
 * form shows them (components/ui/form-feedback.ts); once sent, the form gives way to the confirmation,
 * which takes focus.
 */
function BarrierForm() {
  const id = useId();
  const [params] = useSearchParams();
  const signedIn = pageConfig().authId !== null;
  const feedback = useFormFeedback();
  const [values, setValues] = useState<Record<FieldName, string>>({
    page: params.get('page')?.slice(0, BARRIER_REPORT.pageMax) ?? '',
    description: '',
    email: '',
  });
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const pageRef = useRef<HTMLInputElement>(null);
  const confirmation = useRef<HTMLDivElement>(null);
  const hasSent = useRef(false);

  // Focus moves once the confirmation (or, after "Report another barrier", the empty form) is
  // on the page: an effect runs after that commit, whatever the device's speed.
  useEffect(() => {
    if (sent) {
      hasSent.current = true;
      confirmation.current?.focus();
    } else if (hasSent.current) pageRef.current?.focus();
  }, [sent]);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!values.description.trim()) {
      feedback.show({ description: BARRIER_MESSAGES.descriptionRequired }, null);
      return;
    }
    setBusy(true);
    try {
      const res = await post<{ message: string }>('/accessibility/barriers', values);
      feedback.clear();
      setSent(res.message);
    } catch (err) {
      feedback.fail(err);
    } finally {
      setBusy(false);
    }
  };

  if (sent)
    return (
      <div
        ref={confirmation}
        tabIndex={-1}
        role="status"
        className="flex flex-col items-start gap-4 rounded-xl bg-success-soft p-5 text-lg font-medium text-success focus-visible:outline-2"
      >
        <p>{sent}</p>
        <Button
          variant="secondary"
          onClick={() => {
            setValues({ page: '', description: '', email: '' });
            setSent(null);
          }}
        >
          Report another barrier
        </Button>
      </div>
    );

  // each field is described by its message (when wrong) and its hint
  const marks = (f: FieldName) => {
    const error = feedback.error(f);
    return {
      'aria-invalid': error ? (true as const) : undefined,
      'aria-describedby': [error ? `${id}-${f}-err` : null, `${id}-${f}-hint`].filter(Boolean).join(' '),
    };
  };
  const change = (f: FieldName) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [f]: e.target.value }));
    feedback.edited(f);
  };

  return (
    <form
      ref={feedback.formRef}
      onSubmit={(e) => void send(e)}
      noValidate
      aria-label="Report a barrier"
      className="flex flex-col gap-5"
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-page`} className="text-sm font-semibold">
          {LABELS.page}
        </label>
        <input
          ref={pageRef}
          id={`${id}-page`}
          name="page"
          className={inputClass}
          value={values.page}
          onChange={change('page')}
          maxLength={BARRIER_REPORT.pageMax}
          {...marks('page')}
        />
        <p id={`${id}-page-hint`} className="text-sm text-muted">
          The page&rsquo;s name or address, for example &ldquo;checkout&rdquo; or &ldquo;/metronome&rdquo;.
        </p>
        <FieldMessage id={`${id}-page-err`} message={feedback.error('page')} />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-description`} className="text-sm font-semibold">
          {LABELS.description}
        </label>
        <textarea
          id={`${id}-description`}
          name="description"
          required
          className={`${inputClass} min-h-40 py-3`}
          value={values.description}
          onChange={change('description')}
          maxLength={BARRIER_REPORT.descriptionMax}
          {...marks('description')}
        />
        <p id={`${id}-description-hint`} className="text-sm text-muted">
          What you were trying to do, what stopped you, and what you use (a screen reader, keyboard only, zoom…).
        </p>
        <FieldMessage id={`${id}-description-err`} message={feedback.error('description')} />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-email`} className="text-sm font-semibold">
          {LABELS.email}
        </label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="email"
          className={inputClass}
          value={values.email}
          onChange={change('email')}
          maxLength={BARRIER_REPORT.emailMax}
          {...marks('email')}
        />
        <p id={`${id}-email-hint`} className="text-sm text-muted">
          {signedIn
            ? 'Leave it empty and we write back to the address of your account.'
            : 'Where we can write back to you. Leave it empty to report without an answer.'}
        </p>
        <FieldMessage id={`${id}-email-err`} message={feedback.error('email')} />
      </div>
      <div>
        <Button type="submit" aria-disabled={busy || undefined}>
          {busy ? 'Sending…' : 'Send report'}
        </Button>
      </div>
      <FormError message={feedback.summary} inline />
    </form>
  );
}

/** /accessibility: the accessibility statement, and a way to report a barrier. */
export function AccessibilityPage() {
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-10">
      <PageTitle
        title="Accessibility"
        subtitle="Backbeat is for every drummer: with a keyboard, a screen reader, zoom, captions or a phone in one hand."
      />
      <Section title="The standard we hold ourselves to">
        <p className="text-lg">
          We build Backbeat to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA, the level the
          European standard EN 301 549 asks of websites and the one the European Accessibility Act points to. Every
          page, dialog and menu is meant to work by keyboard alone and with a screen reader, at phone and desktop width.
        </p>
        <p className="text-lg">
          Backbeat <strong>partially conforms</strong>: most of it meets the standard, and the parts that do not yet are
          listed below.
        </p>
      </Section>
      <Section title="How we check">
        <ul className="flex list-disc flex-col gap-2 pl-6 text-lg">
          <li>
            Every change is tested with axe-core on every page of the academy and with each dialog and menu open, as a
            visitor, a member, a mentorship student and an admin, at phone and desktop width.
          </li>
          <li>
            Browser tests go through signing in, joining, the forums, chat, the metronome and the quiz by keyboard.
          </li>
          <li>We try new pages by keyboard and with a screen reader before they go out.</li>
        </ul>
      </Section>
      <Section title="Known limitations">
        <ul className="flex list-disc flex-col gap-2 pl-6 text-lg">
          <li>
            Lesson and live-show videos play in YouTube&rsquo;s or Vimeo&rsquo;s player. We ask the player to show
            captions from the start, but a video only has them where the host does; a live show&rsquo;s captions are the
            host&rsquo;s live captions, when it has any.
          </li>
          <li>
            Practice videos that mentorship students send are their own recordings. They have captions when the mentor
            attaches a caption file.
          </li>
          <li>
            Images that members attach to posts are described only as &ldquo;Image attached by&rdquo; the member: a
            member cannot yet write their own description.
          </li>
        </ul>
      </Section>
      <Section title="Report a barrier">
        <p className="text-lg">
          If something on Backbeat stops you, or takes more effort than it should, tell us here. Reports go straight to
          the team that builds the academy; you do not need an account.
        </p>
        <Card>
          <BarrierForm />
        </Card>
        <p className="text-muted">
          If our answer does not solve the problem, you can turn to the body that enforces accessibility law in your
          country.
        </p>
      </Section>
      <p className="text-muted">This statement was last reviewed on {reviewed}.</p>
    </div>
  );
}
