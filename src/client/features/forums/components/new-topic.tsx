import { useId, useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Plus, X } from 'lucide-react';
import { COMMUNITY } from '#shared/community';
import { FORUM_MESSAGES } from '#shared/forums';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FormError, inputClass } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { useCategories, useCreateTopic } from '../api/forums.ts';

type Errors = Partial<Record<'category' | 'title' | 'body', string>>;

/**
 * "New topic": a modal form (category, title, first post). Errors appear under their fields the way
 * every form shows them (components/ui/form-feedback.ts); the server's messages win over ours. On
 * success `onCreated` gets the new topic and its category.
 */
export function NewTopicButton({
  defaultSlug,
  onCreated,
}: {
  defaultSlug?: string;
  onCreated: (topic: { id: number; url: string }, slug: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const categories = useCategories();
  const create = useCreateTopic();
  const [slug, setSlug] = useState(defaultSlug ?? '');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const feedback = useFormFeedback();
  const errors: Errors = { ...feedback.errors, category: feedback.errors.category ?? feedback.errors.slug };
  const ids = { category: useId(), body: useId() };
  const chosen = slug || defaultSlug || '';

  function reset() {
    setTitle('');
    setBody('');
    feedback.clear();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (create.isPending) return;
    const local: Errors = {};
    if (!chosen) local.category = FORUM_MESSAGES.categoryRequired;
    if (!title.trim()) local.title = FORUM_MESSAGES.titleRequired;
    if (!body.trim()) local.body = FORUM_MESSAGES.bodyRequired;
    if (Object.keys(local).length) return feedback.show(local, null);
    feedback.clear();
    try {
      const res = await create.mutateAsync({ slug: chosen, title, body });
      setOpen(false);
      reset();
      onCreated(res.topic, chosen);
    } catch (err) {
      feedback.fail(err);
    }
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o && defaultSlug) setSlug(defaultSlug);
      }}
    >
      <Dialog.Trigger asChild>
        <Button>
          <Plus aria-hidden className="size-5" /> {FORUM_MESSAGES.newTopic}
        </Button>
      </Dialog.Trigger>
      {open ? (
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-[900] bg-black/55 backdrop-blur-[2px]" />
          <Dialog.Content className="fixed left-1/2 top-1/2 z-[901] max-h-[92vh] w-[calc(100vw-1.5rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-line bg-surface p-5 text-fg shadow-2xl sm:p-8">
            <div className="mb-5 flex items-start justify-between gap-4">
              <Dialog.Title className="text-2xl font-bold tracking-tight">Start a new topic</Dialog.Title>
              <Dialog.Description className="sr-only">
                Choose a category, give your topic a title and write the first post.
              </Dialog.Description>
              <Dialog.Close
                aria-label="Close"
                className="-mr-2 -mt-2 grid size-11 shrink-0 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
              >
                <X aria-hidden className="size-5" />
              </Dialog.Close>
            </div>
            <form ref={feedback.formRef} onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
              <div className="flex flex-col gap-1.5">
                <label htmlFor={ids.category} className="text-sm font-semibold">
                  Category
                </label>
                <select
                  id={ids.category}
                  value={chosen}
                  onChange={(e) => {
                    setSlug(e.target.value);
                    feedback.edited('slug');
                    feedback.edited('category');
                  }}
                  className={inputClass}
                  aria-invalid={!!errors.category || undefined}
                  aria-describedby={errors.category ? `${ids.category}-err` : undefined}
                >
                  <option value="" disabled>
                    Choose a category
                  </option>
                  {categories.data?.map((c) => (
                    <option key={c.id} value={c.slug}>
                      {c.title}
                    </option>
                  ))}
                </select>
                {errors.category ? (
                  <p id={`${ids.category}-err`} className="text-sm font-medium text-danger">
                    {errors.category}
                  </p>
                ) : null}
              </div>
              <Field
                label="Title"
                value={title}
                maxLength={COMMUNITY.topicTitleMax}
                onChange={(e) => {
                  setTitle(e.target.value);
                  feedback.edited('title');
                }}
                error={errors.title}
                autoComplete="off"
              />
              <div className="flex flex-col gap-1.5">
                <label htmlFor={ids.body} className="text-sm font-semibold">
                  Your post
                </label>
                <textarea
                  id={ids.body}
                  value={body}
                  rows={7}
                  maxLength={COMMUNITY.postBodyMax}
                  onChange={(e) => {
                    setBody(e.target.value);
                    feedback.edited('body');
                  }}
                  placeholder="What would you like to talk about?"
                  className={`${inputClass} min-h-40 py-3`}
                  aria-invalid={!!errors.body || undefined}
                  aria-describedby={errors.body ? `${ids.body}-err` : undefined}
                />
                {errors.body ? (
                  <p id={`${ids.body}-err`} className="text-sm font-medium text-danger">
                    {errors.body}
                  </p>
                ) : null}
              </div>
              <FormError message={feedback.summary} inline />
              <div className="flex flex-wrap justify-end gap-3">
                <Dialog.Close asChild>
                  <Button variant="secondary">Cancel</Button>
                </Dialog.Close>
                <Button type="submit" disabled={create.isPending}>
                  {create.isPending ? <Spinner label="Posting" className="[&_svg]:text-accent-fg" /> : null} Post topic
                </Button>
              </div>
            </form>
          </Dialog.Content>
        </Dialog.Portal>
      ) : null}
    </Dialog.Root>
  );
}
