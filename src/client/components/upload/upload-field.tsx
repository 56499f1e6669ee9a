import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import clsx from 'clsx';
import { CheckCircle2, FileVideo, UploadCloud } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { useUpload } from './use-upload.ts';
import { formatBytes, formatSpeed, type UploaderOptions } from './uploader.ts';

export interface UploadFieldProps {
  /** the visible label of the picker */
  label: string;
  hint?: string;
  /** the file input's accept attribute */
  accept?: string;
  options: UploaderOptions;
  /** the server's answer when the file arrived */
  onUploaded?: (response: unknown) => void;
  /** the file was removed or replaced: whatever the last answer said no longer holds */
  onReset?: () => void;
  disabled?: boolean;
}

/**
 * The generic upload component's UI (docs/product/uploads.md): a file picker that is also a drop zone
 * (a label, so the keyboard and screen readers reach it), the file's name and size, a progress bar,
 * the speed, Cancel, and the error in words with Try again (which resumes).
 */
export function UploadField({ label, hint, accept, options, onUploaded, onReset, disabled }: UploadFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const upload = useUpload(options);
  const { file, message } = upload;
  const reported = useRef<unknown>(null);

  useEffect(() => {
    if (file?.success && reported.current !== file.response) {
      reported.current = file.response;
      onUploaded?.(file.response);
    }
  }, [file?.success, file?.response, onUploaded]);

  const choose = (f: File | undefined) => {
    if (!f) return;
    reported.current = null;
    onReset?.();
    upload.select(f);
    if (input.current) input.current.value = '';
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!disabled) choose(e.dataTransfer.files[0]);
  };

  const percent = file ? Number(file.progress) : 0;

  return (
    <div className="flex flex-col gap-3" data-testid="upload-field">
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        className="peer sr-only"
        disabled={disabled || !!file?.active}
        aria-labelledby={`${id}-label`}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => choose(e.target.files?.[0])}
      />
      <label
        htmlFor={id}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={clsx(
          'flex min-h-28 cursor-pointer flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed px-4 py-6 text-center transition-colors duration-150',
          'peer-focus-visible:outline peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-focus',
          dragging ? 'border-accent bg-accent-soft' : 'border-line bg-surface-2 hover:border-accent',
          (disabled || file?.active) && 'cursor-not-allowed opacity-60',
        )}
      >
        <UploadCloud aria-hidden className="size-8 text-accent" />
        <span id={`${id}-label`} className="text-base font-semibold">
          {label}
        </span>
        <span className="text-sm text-muted">
          {file ? 'Choose another file, or drop it here' : 'Choose a file, or drop it here'}
        </span>
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}

      {file ? (
        <div
          className="rounded-2xl border border-line bg-surface p-4"
          data-testid="upload-file"
          data-state={file.active ? 'active' : file.success ? 'success' : file.error ? 'error' : 'inactive'}
        >
          <div className="flex items-start gap-3">
            {file.success ? (
              <CheckCircle2 aria-hidden className="mt-0.5 size-6 shrink-0 text-success" />
            ) : (
              <FileVideo aria-hidden className="mt-0.5 size-6 shrink-0 text-muted" />
            )}
            <div className="min-w-0 flex-1">
              <p className="truncate font-semibold" title={file.name}>
                {file.name}
              </p>
              <p className="tabular text-sm text-muted">{formatBytes(file.size)}</p>
            </div>
          </div>

          {file.active || (!file.error && !file.success) ? (
            <div className="mt-3">
              <div
                role="progressbar"
                aria-label={`Uploading ${file.name}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(percent)}
                aria-valuetext={`${Math.round(percent)} percent`}
                className="h-3 w-full overflow-hidden rounded-full bg-surface-2"
              >
                <div
                  className="h-full rounded-full bg-accent transition-[width] duration-150 motion-reduce:transition-none"
                  style={{ width: `${percent}%` }}
                />
              </div>
              <div className="tabular mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
                <span className="font-semibold">{Math.floor(percent)}%</span>
                <span className="text-muted" data-testid="upload-speed">
                  {file.speed > 0 ? formatSpeed(file.speed) : 'Starting…'}
                </span>
              </div>
              <div className="mt-3 flex justify-end">
                <Button variant="secondary" onClick={upload.cancel}>
                  Cancel
                </Button>
              </div>
            </div>
          ) : null}

          {file.success ? (
            <p role="status" className="mt-3 font-semibold text-success">
              Uploaded
            </p>
          ) : null}

          {file.error ? (
            <div className="mt-3 flex flex-col gap-3">
              <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 font-medium text-danger">
                {message}
              </p>
              <div className="flex flex-wrap gap-2">
                {file.error !== 'extension' && file.error !== 'size' ? (
                  <Button onClick={upload.retry}>Try again</Button>
                ) : null}
                <Button
                  variant="ghost"
                  onClick={() => {
                    upload.remove();
                    reported.current = null;
                    onReset?.();
                  }}
                >
                  Remove
                </Button>
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
