import { useEffect, useId } from 'react';
import { useNavigate } from 'react-router';
import { digitsOnly } from '#shared/metronome';
import { SONG, songLength, type Song } from '#shared/songmapper';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { useFormFeedback, type FieldMessages } from '#client/components/ui/form-feedback.ts';
import { toast } from '#client/components/ui/toast.tsx';
import { useDeleteSong } from '../api/songs.ts';
import { writeDraft } from '../drafts.ts';
import { useSongAutosave } from '../use-song-autosave.ts';
import { SectionList } from './section-list.tsx';
import { SongToolbar } from './song-toolbar.tsx';

export { readDraft } from '../drafts.ts';

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

/** The fields of a refused save, named as the editor's fields are (`title`, `sections.0.measures`). */
const refusedFields = (errors: Record<string, string[]> | undefined): FieldMessages => {
  const out: FieldMessages = {};
  for (const [k, v] of Object.entries(errors ?? {})) if (v[0]) out[k.replace(/^song\./, '')] = v[0];
  return out;
};
const same = (a: FieldMessages, b: FieldMessages) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

export function SongEditor({ id: initialId, initial, base, onCreated, restored = false }: EditorProps) {
  const navigate = useNavigate();
  const uid = useId();
  const { song, id, status, error, update, stop } = useSongAutosave({ id: initialId, initial, restored, onCreated });
  const [confirm, confirmDialog] = useConfirm();
  // A field the server refused is marked and described as every form's are (components/ui/form-feedback.ts) and
  // the summary is said politely; there is no Save button and the song saves as the member types, so focus never moves.
  const feedback = useFormFeedback();
  const set = <K extends keyof Song>(key: K, value: Song[K]) => {
    feedback.edited(key);
    update({ ...song, [key]: value });
  };
  const { show, clear, errors: shown } = feedback;
  useEffect(() => {
    if (status === 'saved') clear();
    if (status !== 'error') return;
    const fields = refusedFields(error?.errors);
    // the same refusal again (another edit elsewhere) is not said again
    if (!same(fields, shown)) show(fields, null, undefined, { focus: false });
    // only a new answer of the autosave is read here, not each edit's clearing of a mark
  }, [status, error]);

  const applyTemplate = async (template: Song, message: string) => {
    if (!(await confirm(message, { confirmLabel: 'Use template' }))) return;
    // a template brings its sections; the song's own title and bpm stay unless it has none
    feedback.edited('sections');
    update({ ...template, title: song.title || template.title, bpm: song.bpm || template.bpm });
  };

  const remove = useDeleteSong();
  const deleteSong = async () => {
    if (!id || !(await confirm(SONG.confirmDelete, { confirmLabel: 'Delete song', danger: true }))) return;
    stop();
    try {
      await remove.mutateAsync(id);
      writeDraft(id, null);
      toast('Song deleted.');
      navigate(base);
    } catch (e) {
      toast(e instanceof Error ? e.message : SONG.saveFailed, 'danger');
    }
  };

  const { measures, seconds } = songLength(song);

  return (
    <div className="flex flex-col gap-5">
      {confirmDialog}
      <SongToolbar
        id={id}
        song={song}
        status={status}
        error={error}
        onApplyTemplate={applyTemplate}
        onDelete={() => void deleteSong()}
      />

      {/* not sent: the editor's fields in one form, so that the refused ones are found and summarised */}
      <form ref={feedback.formRef} noValidate onSubmit={(e) => e.preventDefault()} className="flex flex-col gap-5">
        <p role="status" className="text-base font-medium text-danger empty:hidden">
          {feedback.summary ?? ''}
        </p>
        <div className="grid grid-cols-[minmax(0,1fr)_6.5rem] gap-3 sm:grid-cols-[minmax(0,1fr)_9rem] sm:gap-4">
          <Field
            label="Song title"
            inputClassName="text-lg font-semibold"
            value={song.title}
            maxLength={SONG.titleMax}
            placeholder={SONG.untitled}
            onChange={(e) => set('title', e.target.value)}
            error={feedback.error('title')}
            errorId={`${uid}-title-err`}
          />
          <Field
            label="BPM"
            inputClassName="tabular text-lg"
            inputMode="numeric"
            maxLength={SONG.bpmMaxLength}
            value={song.bpm}
            placeholder="bpm"
            onChange={(e) => set('bpm', digitsOnly(e.target.value, SONG.bpmMaxLength))}
            error={feedback.error('bpm')}
            errorId={`${uid}-bpm-err`}
          />
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

        <SectionList song={song} onChange={update} error={feedback.error} onEdited={feedback.edited} />
      </form>
    </div>
  );
}
