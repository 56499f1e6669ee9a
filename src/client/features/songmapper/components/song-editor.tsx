import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  ArrowDown,
  ArrowUp,
  Check,
  ChevronDown,
  CloudOff,
  Copy,
  FileDown,
  LayoutTemplate,
  Loader2,
  Plus,
  Save,
  Trash2,
  TriangleAlert,
} from 'lucide-react';
import clsx from 'clsx';
import { digitsOnly } from '#shared/metronome';
import {
  DEFAULT_TEMPLATE,
  DIVISIONS,
  emptySection,
  OTHER_OPTION,
  SECTION_TITLES,
  SONG,
  songLength,
  type Section,
  type Song,
  type SongTemplate,
} from '#shared/songmapper';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Dropdown, DropdownItem, DropdownLabel, DropdownSeparator } from '#client/components/ui/dropdown.tsx';
import { Field, FormError, inputClass } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { closeModal, Modal, openModal } from '#client/components/ui/modal.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { ApiError } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { saveSong, useDeleteSong, useDeleteTemplate, useSaveTemplate, useTemplates } from '../api/songs.ts';
import { Autosaver, type SaveError, type SaveStatus } from '../autosave.ts';

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
const draftKey = (id: string | null) => `bb-song-draft:${pageConfig().authId ?? 0}:${id ?? 'new'}`;

interface Draft {
  song: Song;
  at: string;
}
export function readDraft(id: string | null): Draft | null {
  try {
    const raw = localStorage.getItem(draftKey(id));
    return raw ? (JSON.parse(raw) as Draft) : null;
  } catch {
    return null;
  }
}
function writeDraft(id: string | null, song: Song | null) {
  try {
    if (song)
      localStorage.setItem(draftKey(id), JSON.stringify({ song, at: new Date().toISOString() } satisfies Draft));
    else localStorage.removeItem(draftKey(id));
  } catch {
    // storage full or disabled: the server copy and the retry still stand
  }
}

/** What the indicator says ("Saving..." then "Saved!" for 1.5 s; failures say so). */
function StatusText({ status, error }: { status: SaveStatus; error: SaveError | null }) {
  const content: Record<SaveStatus, [string, React.ReactNode, string]> = {
    idle: ['', null, ''],
    saving: [
      SONG.saving,
      <Loader2 key="i" aria-hidden className="size-4 animate-spin motion-reduce:animate-none" />,
      'text-muted',
    ],
    saved: [SONG.saved, <Check key="i" aria-hidden className="size-4" />, 'text-success'],
    retrying: [SONG.saveFailed, <TriangleAlert key="i" aria-hidden className="size-4" />, 'text-warning'],
    offline: [SONG.offline, <CloudOff key="i" aria-hidden className="size-4" />, 'text-warning'],
    error: [error?.message ?? SONG.saveFailed, <TriangleAlert key="i" aria-hidden className="size-4" />, 'text-danger'],
  };
  const [text, icon, tone] = content[status];
  return (
    <p
      role="status"
      aria-live="polite"
      data-testid="save-status"
      className={clsx('flex min-h-6 items-center gap-1.5 text-sm font-semibold', tone)}
    >
      {icon}
      {text}
    </p>
  );
}

interface EditorProps {
  /** the saved song's id, or null for a new song */
  id: string | null;
  initial: Song;
  /** where the list lives: /songmapper or /mentorship/songmapper */
  base: string;
  /** the first save answered this id (the page adopts it without a reload) */
  onCreated: (id: string) => void;
  /** `initial` is an unsaved edit kept in this browser: save it */
  restored?: boolean;
}

export function SongEditor({ id: initialId, initial, base, onCreated, restored = false }: EditorProps) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [song, setSong] = useState<Song>(initial);
  const [id, setId] = useState<string | null>(initialId);
  const [status, setStatus] = useState<SaveStatus>('idle');
  const [error, setError] = useState<SaveError | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const saverRef = useRef<Autosaver<Song> | null>(null);

  useEffect(() => {
    const saver = new Autosaver<Song>(initialId, {
      save: async (value, current) => {
        const res = await saveSong(value, current);
        writeDraft(current, null);
        return res;
      },
      onStatus: (s, e) => {
        setStatus(s);
        setError(e);
        if (s === 'saved') void qc.invalidateQueries({ queryKey: ['songs'] });
      },
      onId: (newId) => {
        writeDraft(null, null);
        setId(newId);
        onCreated(newId);
      },
      isOnline: () => navigator.onLine,
    });
    saverRef.current = saver;
    // an edit restored from this browser (newer than the server's copy) is saved at once
    if (restored) saver.change(initial);
    const flush = () => saver.flush();
    const hidden = () => document.visibilityState === 'hidden' && saver.flush();
    const leave = (e: BeforeUnloadEvent) => {
      if (saver.dirty) e.preventDefault();
    };
    window.addEventListener('online', flush);
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('beforeunload', leave);
    return () => {
      saver.stop();
      window.removeEventListener('online', flush);
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('beforeunload', leave);
    };
    // one saver for this editor's life; the id it learns stays inside it
  }, []);

  const update = (next: Song) => {
    setSong(next);
    writeDraft(saverRef.current?.id ?? id, next);
    saverRef.current?.change(next);
  };
  const set = <K extends keyof Song>(key: K, value: Song[K]) => update({ ...song, [key]: value });
  const setSection = (i: number, patch: Partial<Section>) =>
    update({ ...song, sections: song.sections.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  const move = (i: number, by: -1 | 1) => {
    const sections = [...song.sections];
    const [s] = sections.splice(i, 1);
    sections.splice(i + by, 0, s!);
    update({ ...song, sections });
  };

  const applyTemplate = async (template: Song, message: string) => {
    if (!(await confirm(message, { confirmLabel: 'Use template' }))) return;
    // a template brings its sections; the song's own title and bpm stay unless it has none
    update({ ...template, title: song.title || template.title, bpm: song.bpm || template.bpm });
  };

  const remove = useDeleteSong();
  const deleteSong = async () => {
    if (!id || !(await confirm(SONG.confirmDelete, { confirmLabel: 'Delete song', danger: true }))) return;
    saverRef.current?.stop();
    try {
      await remove.mutateAsync(id);
      writeDraft(id, null);
      toast('Song deleted.');
      navigate(base);
    } catch (e) {
      toast(e instanceof Error ? e.message : SONG.saveFailed, 'danger');
    }
  };

  const shareUrl = id ? `${window.location.origin}/songmapper/pdf/${id}` : null;
  const copyShare = async () => {
    if (!shareUrl) return;
    try {
      await navigator.clipboard.writeText(shareUrl);
      toast('Share link copied.');
    } catch {
      toast(shareUrl, 'warning');
    }
  };

  const { measures, seconds } = songLength(song);
  const single = song.sections.length === 1;

  return (
    <div className="flex flex-col gap-5">
      {confirmDialog}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <StatusText status={status} error={error} />
        <div className="flex flex-wrap items-center gap-1.5 sm:gap-2">
          <TemplatesMenu song={song} onApply={applyTemplate} />
          {shareUrl ? (
            <>
              <a
                href={`/songmapper/pdf/${id}`}
                target="_blank"
                rel="noopener"
                className={clsx(buttonClass('secondary'), 'px-3 sm:px-4')}
              >
                <FileDown aria-hidden className="size-5" /> PDF
              </a>
              <Button variant="secondary" onClick={copyShare} aria-label="Copy share link" className="px-3 sm:px-4">
                <Copy aria-hidden className="size-5" />
                <span className="hidden sm:inline">Share link</span>
              </Button>
              <Button variant="ghost" onClick={deleteSong} aria-label="Delete song" className="px-3 text-danger">
                <Trash2 aria-hidden className="size-5" />
              </Button>
            </>
          ) : null}
        </div>
      </div>

      <div className="grid grid-cols-[minmax(0,1fr)_6.5rem] gap-3 sm:grid-cols-[minmax(0,1fr)_9rem] sm:gap-4">
        <label className="flex flex-col gap-1.5 text-sm font-semibold">
          Song title
          <input
            className={clsx(inputClass, 'text-lg font-semibold')}
            value={song.title}
            maxLength={SONG.titleMax}
            placeholder={SONG.untitled}
            onChange={(e) => set('title', e.target.value)}
          />
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-semibold">
          BPM
          <input
            className={clsx(inputClass, 'tabular text-lg')}
            inputMode="numeric"
            maxLength={SONG.bpmMaxLength}
            value={song.bpm}
            placeholder="bpm"
            onChange={(e) => set('bpm', digitsOnly(e.target.value, SONG.bpmMaxLength))}
          />
        </label>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <label className="flex min-h-11 cursor-pointer items-center gap-3 text-base font-semibold">
          <input
            type="checkbox"
            className="size-5 accent-[var(--accent)]"
            checked={song.expandFields}
            onChange={(e) => set('expandFields', e.target.checked)}
          />
          Show surface and snare
        </label>
        <p className="text-sm text-muted" data-testid="song-length">
          {song.sections.length} {song.sections.length === 1 ? 'section' : 'sections'} · {measures}{' '}
          {measures === 1 ? 'measure' : 'measures'}
          {seconds !== null
            ? ` · about ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')} in 4/4`
            : ''}
        </p>
      </div>

      <ol className="flex flex-col gap-3" aria-label="Sections">
        {song.sections.map((s, i) => {
          const n = i + 1;
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
                    className="grid size-11 place-items-center rounded-lg text-muted hover:bg-surface hover:text-fg disabled:opacity-30"
                  >
                    <ArrowUp aria-hidden className="size-5" />
                  </button>
                  <button
                    type="button"
                    aria-label={`Move section ${n} down`}
                    disabled={i === song.sections.length - 1}
                    onClick={() => move(i, 1)}
                    className="grid size-11 place-items-center rounded-lg text-muted hover:bg-surface hover:text-fg disabled:opacity-30"
                  >
                    <ArrowDown aria-hidden className="size-5" />
                  </button>
                  {single ? null : (
                    <button
                      type="button"
                      aria-label={`Remove section ${n}`}
                      onClick={() => update({ ...song, sections: song.sections.filter((_, j) => j !== i) })}
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
                />
                <label className="flex flex-col gap-1.5 text-sm font-semibold">
                  Measures
                  <input
                    className={clsx(inputClass, 'tabular')}
                    inputMode="numeric"
                    maxLength={SONG.measuresMaxLength}
                    value={s.measures}
                    placeholder="bars"
                    onChange={(e) => setSection(i, { measures: digitsOnly(e.target.value, SONG.measuresMaxLength) })}
                  />
                </label>
                <ChoiceWithOther
                  label="Division"
                  customLabel={`Section ${n} custom division`}
                  placeholder="e.g. 6/8 feel"
                  options={DIVISIONS}
                  value={s.division}
                  other={s.otherDivision}
                  onChange={(division, otherDivision) => setSection(i, { division, otherDivision })}
                />
                {song.expandFields ? (
                  <div className="col-span-full grid grid-cols-2 gap-3">
                    <label className="flex flex-col gap-1.5 text-sm font-semibold">
                      Surface
                      <input
                        className={inputClass}
                        value={s.surface}
                        maxLength={SONG.fieldMax}
                        placeholder="Hi-hat, ride..."
                        onChange={(e) => setSection(i, { surface: e.target.value })}
                      />
                    </label>
                    <label className="flex flex-col gap-1.5 text-sm font-semibold">
                      Snare
                      <input
                        className={inputClass}
                        value={s.snare}
                        maxLength={SONG.fieldMax}
                        placeholder="2 and 4, rim click..."
                        onChange={(e) => setSection(i, { snare: e.target.value })}
                      />
                    </label>
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
            update({
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
    </div>
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
}) {
  const { label, customLabel, placeholder, options, value, other, onChange, className } = props;
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
        />
      ) : null}
    </div>
  );
}

/** Templates: the default one (with its overwrite warning), the member's own, and "Save as template". */
function TemplatesMenu({ song, onApply }: { song: Song; onApply: (template: Song, message: string) => void }) {
  const templates = useTemplates();
  const remove = useDeleteTemplate();
  return (
    <>
      <Dropdown
        label="Templates"
        align="end"
        trigger={
          <span className="flex items-center gap-2 px-3 font-semibold">
            <LayoutTemplate aria-hidden className="size-5" /> Templates
          </span>
        }
      >
        <DropdownItem onSelect={() => onApply(DEFAULT_TEMPLATE, SONG.confirmDefaultTemplate)}>
          Use the default template
        </DropdownItem>
        {templates.data?.length ? (
          <>
            <DropdownSeparator />
            <DropdownLabel>My templates</DropdownLabel>
            {templates.data.map((t: SongTemplate) => (
              <div key={t.id} className="flex items-center">
                <DropdownItem className="flex-1" onSelect={() => onApply(t.song, SONG.confirmTemplate)}>
                  {t.title}
                </DropdownItem>
                <DropdownItem className="text-danger" onSelect={() => remove.mutate(t.id)}>
                  <span className="sr-only">Delete template {t.title}</span>
                  <Trash2 aria-hidden className="size-4" />
                </DropdownItem>
              </div>
            ))}
          </>
        ) : null}
        <DropdownSeparator />
        <DropdownItem onSelect={() => openModal('song-template')}>
          <Save aria-hidden className="size-4" /> Save as template...
        </DropdownItem>
      </Dropdown>
      <SaveTemplateModal song={song} />
    </>
  );
}

function SaveTemplateModal({ song }: { song: Song }) {
  const [title, setTitle] = useState('');
  const feedback = useFormFeedback();
  const save = useSaveTemplate();
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (save.isPending) return;
    feedback.clear();
    if (!title.trim()) return feedback.show({ title: SONG.templateTitleRequired }, null);
    try {
      await save.mutateAsync({ title: title.trim(), song });
      toast('Template saved.');
      setTitle('');
      closeModal('song-template');
    } catch (err) {
      // a message about the song itself is the form's own: the form shows only the title
      feedback.fail(err, err instanceof ApiError ? (err.firstError(['song']) ?? err.message) : SONG.saveFailed);
    }
  };
  return (
    <Modal
      name="song-template"
      title="Save as template"
      description="Reuse this song's sections for the next one. Saving under an existing name replaces it."
    >
      <form ref={feedback.formRef} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <Field
          label="Template title"
          name="title"
          value={title}
          maxLength={SONG.titleMax}
          error={feedback.error('title')}
          onChange={(e) => {
            setTitle(e.target.value);
            feedback.edited('title');
          }}
        />
        <FormError message={feedback.summary} inline />
        <Button type="submit" disabled={save.isPending}>
          Save template
        </Button>
      </form>
    </Modal>
  );
}
