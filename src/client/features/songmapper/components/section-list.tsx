import { useId } from 'react';
import { ArrowDown, ArrowUp, ChevronDown, Plus, Trash2 } from 'lucide-react';
import clsx from 'clsx';
import { digitsOnly } from '#shared/metronome';
import {
  DIVISIONS,
  emptySection,
  OTHER_OPTION,
  SECTION_TITLES,
  SONG,
  type Section,
  type Song,
} from '#shared/songmapper';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FieldMessage, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps } from '#client/components/ui/form-feedback.ts';

const selectClass = `${inputClass} appearance-none pr-10`;

/** A native select (best on phones) with our chevron. */
const Select = (props: React.SelectHTMLAttributes<HTMLSelectElement>) => (
  <div className="relative">
    <select className={selectClass} {...props} />
    <ChevronDown
      aria-hidden
      className="pointer-events-none absolute right-3 top-1/2 size-5 -translate-y-1/2 text-muted"
    />
  </div>
);

const iconButton =
  'grid size-11 place-items-center rounded-lg text-muted hover:bg-surface hover:text-fg disabled:opacity-30';

/**
 * The song's sections, each with its title, measures and division, moved or removed in place; then "Add section".
 * A field the server refused (`error('sections.0.measures')`) is marked and described by its message.
 */
export function SectionList({
  song,
  onChange,
  error,
  onEdited,
}: {
  song: Song;
  onChange: (song: Song) => void;
  /** the server's message for a field, by its name in the song (`sections.0.measures`) */
  error: (field: string) => string | undefined;
  /** a field was edited: its mark goes */
  onEdited: (field: string) => void;
}) {
  const uid = useId();
  const single = song.sections.length === 1;
  const setSection = (i: number, patch: Partial<Section>) => {
    for (const k of Object.keys(patch)) onEdited(`sections.${i}.${k}`);
    onChange({ ...song, sections: song.sections.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  };
  /** moved or removed: the refused fields' places are the server's no longer */
  const reorder = (sections: Section[]) => {
    onEdited('sections');
    onChange({ ...song, sections });
  };
  const move = (i: number, by: -1 | 1) => {
    const sections = [...song.sections];
    const [s] = sections.splice(i, 1);
    sections.splice(i + by, 0, s!);
    reorder(sections);
  };

  return (
    <>
      <ol className="flex flex-col gap-3" aria-label="Sections">
        {song.sections.map((s, i) => {
          const n = i + 1;
          const marks = (field: keyof Section) => {
            const id = `${uid}-${i}-${field}-err`;
            const message = error(`sections.${i}.${field}`);
            return { id, message, props: invalidProps(message, id) };
          };
          const title = marks('title');
          const measures = marks('measures');
          const division = marks('division');
          const surface = marks('surface');
          const snare = marks('snare');
          return (
            <li key={i} className="rounded-xl border border-line bg-surface-2 p-3 sm:p-4">
              <div className="mb-2 flex items-center justify-between gap-2">
                <span className="text-sm font-bold uppercase tracking-wider text-muted">Section {n}</span>
                <div className="flex items-center">
                  <button
                    type="button"
                    aria-label={`Move section ${n} up`}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    className={iconButton}
                  >
                    <ArrowUp aria-hidden className="size-5" />
                  </button>
                  <button
                    type="button"
                    aria-label={`Move section ${n} down`}
                    disabled={i === song.sections.length - 1}
                    onClick={() => move(i, 1)}
                    className={iconButton}
                  >
                    <ArrowDown aria-hidden className="size-5" />
                  </button>
                  {single ? null : (
                    <button
                      type="button"
                      aria-label={`Remove section ${n}`}
                      onClick={() => reorder(song.sections.filter((_, j) => j !== i))}
                      className="grid size-11 place-items-center rounded-lg text-danger hover:bg-danger-soft"
                    >
                      <Trash2 aria-hidden className="size-5" />
                    </button>
                  )}
                </div>
              </div>
              <div className="grid grid-cols-2 gap-3 sm:grid-cols-[minmax(0,1.5fr)_6.5rem_minmax(0,1fr)]">
                <ChoiceWithOther
                  className="col-span-2 sm:col-span-1"
                  label={`Section ${n} title`}
                  customLabel={`Section ${n} custom title`}
                  placeholder="e.g. Breakdown"
                  options={SECTION_TITLES}
                  value={s.title}
                  other={s.otherTitle}
                  onChange={(title, otherTitle) => setSection(i, { title, otherTitle })}
                  error={title}
                />
                <Field
                  label="Measures"
                  inputClassName="tabular"
                  inputMode="numeric"
                  maxLength={SONG.measuresMaxLength}
                  value={s.measures}
                  placeholder="bars"
                  onChange={(e) => setSection(i, { measures: digitsOnly(e.target.value, SONG.measuresMaxLength) })}
                  error={measures.message}
                  errorId={measures.id}
                />
                <ChoiceWithOther
                  label="Division"
                  customLabel={`Section ${n} custom division`}
                  placeholder="e.g. 6/8 feel"
                  options={DIVISIONS}
                  value={s.division}
                  other={s.otherDivision}
                  onChange={(division, otherDivision) => setSection(i, { division, otherDivision })}
                  error={division}
                />
                {song.expandFields ? (
                  <div className="col-span-full grid grid-cols-2 gap-3">
                    <Field
                      label="Surface"
                      value={s.surface}
                      maxLength={SONG.fieldMax}
                      placeholder="Hi-hat, ride..."
                      onChange={(e) => setSection(i, { surface: e.target.value })}
                      error={surface.message}
                      errorId={surface.id}
                    />
                    <Field
                      label="Snare"
                      value={s.snare}
                      maxLength={SONG.fieldMax}
                      placeholder="2 and 4, rim click..."
                      onChange={(e) => setSection(i, { snare: e.target.value })}
                      error={snare.message}
                      errorId={snare.id}
                    />
                  </div>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      {song.sections.length < SONG.maxSections ? (
        <Button
          variant="secondary"
          className="self-start"
          onClick={() =>
            onChange({
              ...song,
              sections: [
                ...song.sections,
                { ...emptySection(), title: 'Verse', division: song.sections.at(-1)?.division ?? 'Quarter' },
              ],
            })
          }
        >
          <Plus aria-hidden className="size-5" /> Add section
        </Button>
      ) : (
        <p className="text-sm text-muted">A song can have {SONG.maxSections} sections at most.</p>
      )}
    </>
  );
}

/**
 * One of the song mapper's options, or "Other..." with free text. A value that is not an
 * option (from an older song) stays selectable.
 */
function ChoiceWithOther(props: {
  label: string;
  customLabel: string;
  placeholder: string;
  options: readonly string[];
  value: string;
  other: boolean;
  onChange: (value: string, other: boolean) => void;
  className?: string;
  /** the server's message for this choice: it marks the control in use (the select, or the free text) */
  error: { id: string; message: string | undefined; props: ReturnType<typeof invalidProps> };
}) {
  const { label, customLabel, placeholder, options, value, other, onChange, className, error } = props;
  const id = useId();
  return (
    <div className={clsx('flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <Select
        id={id}
        value={other ? OTHER_OPTION : value}
        onChange={(e) => (e.target.value === OTHER_OPTION ? onChange('', true) : onChange(e.target.value, false))}
        {...(other ? {} : error.props)}
      >
        {options.map((o) => (
          <option key={o}>{o}</option>
        ))}
        {!other && value && !options.includes(value) ? <option>{value}</option> : null}
        <option>{OTHER_OPTION}</option>
      </Select>
      {other ? (
        <input
          aria-label={customLabel}
          className={inputClass}
          value={value}
          maxLength={SONG.fieldMax}
          placeholder={placeholder}
          autoFocus
          onChange={(e) => onChange(e.target.value, true)}
          {...(other ? error.props : {})}
        />
      ) : null}
      <FieldMessage id={error.id} message={error.message} />
    </div>
  );
}
