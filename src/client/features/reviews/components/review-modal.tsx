import { useState, type FormEvent } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { LEARNING } from '#shared/learning';
import { ApiError, post } from '#client/lib/api.ts';
import { Modal } from '#client/components/ui/modal.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { FormError, TextAreaField } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';

export const REVIEW_MODAL = 'student-review';

/**
 * Student review (docs/product/contact.md): a subject-less body; open, loading, submitted. What is
 * wrong is shown as every form shows it (components/ui/form-feedback.ts).
 */
export function ReviewModal() {
  const [state, setState] = useState<'open' | 'loading' | 'submitted'>('open');
  const [body, setBody] = useState('');
  const feedback = useFormFeedback();
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (state === 'loading') return;
    setState('loading');
    feedback.clear();
    try {
      await post('/contact/send', { subject: '', body, studentReview: '1' });
      setState('submitted');
    } catch (err) {
      // the review has no subject field: its message, else the fallback, is the form's own message
      feedback.fail(err, (err instanceof ApiError && err.firstError(['subject'])) || LEARNING.reviewFallback);
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
        <form ref={feedback.formRef} onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" noValidate>
          <TextAreaField
            label="Your review"
            name="body"
            rows={6}
            value={body}
            maxLength={5000}
            error={feedback.error('body')}
            onChange={(e) => {
              setBody(e.target.value);
              feedback.edited('body');
            }}
          />
          <FormError message={feedback.summary} inline />
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
