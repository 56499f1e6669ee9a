import { useState, type FormEvent } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { LEARNING } from '#shared/learning';
import { ApiError, post } from '#client/lib/api.ts';
import { Modal } from '#client/components/ui/modal.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { FormError, inputClass } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';

export const REVIEW_MODAL = 'student-review';

/** Student review (docs/product/contact.md): a subject-less body; open, loading, submitted. */
export function ReviewModal() {
  const [state, setState] = useState<'open' | 'loading' | 'submitted'>('open');
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (state === 'loading') return;
    setState('loading');
    setError(null);
    try {
      await post('/contact/send', { subject: '', body, studentReview: '1' });
      setState('submitted');
    } catch (err) {
      setError((err instanceof ApiError && err.firstError(['body', 'subject'])) || LEARNING.reviewFallback);
      setState('open');
    }
  }
  return (
    <Modal name={REVIEW_MODAL} title="Leave a review" description="How is Backbeat helping your drumming?">
      {state === 'submitted' ? (
        <p role="status" className="flex items-center gap-2 rounded-xl bg-success-soft p-4 font-semibold text-success">
          <CheckCircle2 aria-hidden className="size-5" /> Thank you! Your review has been sent.
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" noValidate>
          <label className="flex flex-col gap-1.5 text-sm font-semibold">
            Your review
            <textarea
              className={`${inputClass} min-h-36 py-3`}
              value={body}
              maxLength={5000}
              onChange={(e) => setBody(e.target.value)}
            />
          </label>
          <FormError message={error} inline />
          {state === 'loading' ? (
            <div className="grid min-h-11 place-items-center">
              <Spinner label="Sending" />
            </div>
          ) : (
            <Button type="submit" full>
              Send review
            </Button>
          )}
        </form>
      )}
    </Modal>
  );
}
