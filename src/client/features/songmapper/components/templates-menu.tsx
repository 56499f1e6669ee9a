import { useState } from 'react';
import { LayoutTemplate, Save, Trash2 } from 'lucide-react';
import { DEFAULT_TEMPLATE, SONG, type Song, type SongTemplate } from '#shared/songmapper';
import { Button } from '#client/components/ui/button.tsx';
import { Dropdown, DropdownItem, DropdownLabel, DropdownSeparator } from '#client/components/ui/dropdown.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { closeModal, Modal, openModal } from '#client/components/ui/modal.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { ApiError } from '#client/lib/api.ts';
import { useDeleteTemplate, useSaveTemplate, useTemplates } from '../api/songs.ts';

/** Templates: the default one (with its overwrite warning), the member's own, and "Save as template". */
export function TemplatesMenu({ song, onApply }: { song: Song; onApply: (template: Song, message: string) => void }) {
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
