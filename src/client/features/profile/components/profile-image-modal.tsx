import { useId, useState, type ChangeEvent, type MouseEvent } from 'react';
import { checkImageFile, UPLOADS } from '#shared/learning';
import type { ProfileImageAnswer } from '#shared/profile';
import { api, ApiError } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { Modal } from '#client/components/ui/modal.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { FieldMessage, FormError } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { navigate } from '#client/lib/browser.ts';

export const PROFILE_IMAGE_MODAL = 'profile-image';

/**
 * Profile image modal (docs/product/profile-and-wall.md): one file, checked here by extension and size, then the server
 * by content; a spinner while it uploads; "ok" reloads the page. A refused file is shown as every form
 * shows what is wrong (components/ui/form-feedback.ts): under the file field, said, with focus on it.
 */
export function ProfileImageModal({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const [state, setState] = useState<'idle' | 'active'>('idle');
  const feedback = useFormFeedback();
  const errorId = useId();
  const fileError = (message: string) => feedback.show({ file: message }, null);

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const problem = checkImageFile(file.name, file.size);
    if (problem) return fileError(problem);
    feedback.clear();
    setState('active');
    const body = new FormData();
    body.append('file', file);
    try {
      const res = await api<ProfileImageAnswer>('POST', '/dashboard/upload-image', body);
      if (res.response === 'ok') return reload();
      fileError(`Error: ${res.response}`);
    } catch (err) {
      const message =
        err instanceof ApiError
          ? ((err.body as { response?: string } | null)?.response ?? err.message)
          : 'the upload did not reach the server.';
      fileError(message === UPLOADS.imageWrongType ? message : `Error: ${message}`);
    }
    setState('idle');
  }

  const [confirm, confirmDialog] = useConfirm();
  // the member stays on the page they opened the modal from
  const here = window.location.pathname + window.location.search;
  const clearHref = `/dashboard/clear-image?_token=${encodeURIComponent(pageConfig().csrfToken)}&to=${encodeURIComponent(here)}`;
  async function clear(e: MouseEvent<HTMLAnchorElement>) {
    e.preventDefault();
    if (
      await confirm('Delete your profile image? Your initials show in its place.', {
        confirmLabel: 'Delete image',
        danger: true,
      })
    )
      navigate.to(clearHref);
  }

  return (
    <Modal name={PROFILE_IMAGE_MODAL} title="Profile image" size="sm">
      <form ref={feedback.formRef} noValidate onSubmit={(e) => e.preventDefault()} className="flex flex-col gap-4">
        {state === 'active' ? (
          <div className="grid min-h-24 place-items-center">
            <Spinner label="Uploading" />
          </div>
        ) : (
          <label className="flex min-h-24 cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed border-line p-4 text-center hover:border-accent">
            <span className="font-semibold">Choose an image</span>
            <span className="text-sm text-muted">{UPLOADS.imageHint}</span>
            <input
              type="file"
              accept=".jpg,.jpeg,.png,.gif,image/jpeg,image/png,image/gif"
              className="sr-only"
              onChange={(e) => void choose(e)}
              aria-label="Choose an image"
              {...invalidProps(feedback.errors.file, errorId)}
            />
          </label>
        )}
        <FieldMessage id={errorId} message={feedback.errors.file} />
        <FormError message={feedback.summary} inline />
        <a
          href={clearHref}
          onClick={(e) => void clear(e)}
          className="self-start font-semibold text-danger underline-offset-2 hover:underline"
        >
          Delete Current Image
        </a>
        {confirmDialog}
      </form>
    </Modal>
  );
}
