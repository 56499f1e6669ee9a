import { useCallback, useState, type FormEvent } from 'react';
import { UPLOAD_PURPOSES, UPLOAD_TARGETS, VIDEO_LIMITS } from '#shared/upload';
import { errorMessage } from '#client/lib/api.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FieldMessage, FormError, inputClass } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { toast } from '#client/components/ui/toast.tsx';
import { UploadField } from '#client/components/upload/upload-field.tsx';
import type { UploaderOptions } from '#client/components/upload/uploader.ts';
import { useSubmitVideo } from '../api/videos.ts';

const PURPOSE = UPLOAD_PURPOSES['practice-video'];

/** Practice videos go through the chunked handler when over 1 MB (chunking on: docs/product/uploads.md). */
export const VIDEO_UPLOAD_OPTIONS: UploaderOptions = {
  postAction: UPLOAD_TARGETS.simple,
  chunk: { enabled: true, action: UPLOAD_TARGETS.chunked },
  extensions: PURPOSE.extensions,
  maxSize: PURPOSE.maxSize,
  data: { purpose: 'practice-video' },
};

const sessionIdOf = (response: unknown) => {
  const id = (response as { data?: { session_id?: unknown } } | null)?.data?.session_id;
  return typeof id === 'string' ? id : null;
};

/**
 * "Send a practice video": title, note and the video; sent to the mentor once the upload finished.
 * What the server refuses is shown as every form shows it (components/ui/form-feedback.ts).
 */
export function SendVideoForm({ onSent }: { onSent?: (id: number) => void }) {
  const [title, setTitle] = useState('');
  const [note, setNote] = useState('');
  const [uploadId, setUploadId] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const submit = useSubmitVideo();
  const feedback = useFormFeedback();
  const noteError = feedback.error('note');

  const onUploaded = useCallback((response: unknown) => setUploadId(sessionIdOf(response)), []);
  const onReset = useCallback(() => setUploadId(null), []);

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!uploadId || submit.isPending) return;
    feedback.clear();
    submit.mutate(
      { upload_id: uploadId, title, note },
      {
        onSuccess: (video) => {
          toast('Sent to your mentor.', 'success');
          setTitle('');
          setNote('');
          setUploadId(null);
          setRound((r) => r + 1);
          onSent?.(video.id);
        },
        // the upload has no field of its own to mark: its message is the form's own
        onError: (err) => feedback.fail(err, errorMessage(err, ['upload_id'])),
      },
    );
  };

  return (
    <form ref={feedback.formRef} onSubmit={send} className="flex flex-col gap-4" aria-label="Send a practice video">
      <Field
        label="Title"
        name="title"
        value={title}
        maxLength={VIDEO_LIMITS.title}
        required
        error={feedback.error('title')}
        onChange={(e) => {
          setTitle(e.target.value);
          feedback.edited('title');
        }}
        placeholder="e.g. Paradiddles at 90 bpm"
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor="video-note" className="text-sm font-semibold">
          Note for your mentor <span className="font-normal text-muted">(optional)</span>
        </label>
        <textarea
          id="video-note"
          name="note"
          className={`${inputClass} min-h-24 py-3`}
          value={note}
          maxLength={VIDEO_LIMITS.note}
          onChange={(e) => {
            setNote(e.target.value);
            feedback.edited('note');
          }}
          placeholder="What should your mentor look at?"
          {...invalidProps(noteError, 'video-note-err')}
        />
        <FieldMessage id="video-note-err" message={noteError} />
      </div>
      <UploadField
        key={round}
        label="Your practice video"
        hint="MP4, MOV, M4V or WebM, up to 1 GB. Big files are sent in parts and can resume if the connection drops."
        accept={PURPOSE.extensions.map((e) => `.${e}`).join(',') + ',video/*'}
        options={VIDEO_UPLOAD_OPTIONS}
        onUploaded={onUploaded}
        onReset={onReset}
      />
      <div>
        <Button type="submit" disabled={!uploadId || !title.trim() || submit.isPending}>
          {submit.isPending ? 'Sending…' : 'Send to my mentor'}
        </Button>
      </div>
      <FormError message={feedback.summary} />
    </form>
  );
}
