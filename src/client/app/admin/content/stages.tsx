import { useState, type FormEvent } from 'react';
import { Link } from '#client/components/ui/link.tsx';
import { Trash2 } from 'lucide-react';
import { CONTENT, stageBodySchema, type AdminStage, type AdminStageRow } from '#shared/admin-content';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { DataTable, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { AdminTitle, ImageField, NewLink, Panel, TextArea } from '#client/components/admin/form.tsx';
import { AddButton, EditPage, moved, RowTools, SaveRow, type Resource } from './parts.tsx';
import { formClass, useEditorCalls, useSubmit } from './editing.ts';

const STAGES: Resource = {
  noun: 'Stage',
  plural: 'Stages',
  api: '/api/admin/stages',
  page: '/admin/stages',
  queryKey: 'admin-stage',
  listKey: 'admin-stages',
};

/** /admin/stages */
export function AdminStagesPage() {
  const result = useAdminList<AdminStageRow>('admin-stages', '/api/admin/stages');
  const columns: Column<AdminStageRow>[] = [
    { key: 'id', label: 'Stage', sortable: true, render: (s) => s.id },
    {
      key: 'title',
      wrap: true,
      label: 'Title',
      sortable: true,
      render: (s) => (
        <Link to={`/admin/stages/${s.id}`} className="font-semibold text-accent-strong hover:underline">
          {s.title}
        </Link>
      ),
    },
    { key: 'steps', label: 'Checklist steps', render: (s) => s.steps },
  ];
  return (
    <>
      <AdminTitle
        title="Stages"
        description="The stages members move through, and each stage's checklist."
        actions={<NewLink to="/admin/stages/new">New stage</NewLink>}
      />
      <DataTable
        result={result}
        columns={columns}
        rowKey={(s) => s.id}
        searchLabel="Search stages"
        empty="No stages match."
      />
    </>
  );
}

/** /admin/stages/new and /admin/stages/:id */
export function AdminStageEditPage() {
  return <EditPage<AdminStage> resource={STAGES}>{(stage) => <StageEditor stage={stage} />}</EditPage>;
}

function StageEditor({ stage }: { stage: AdminStage | null }) {
  const calls = useEditorCalls<AdminStage>(STAGES);
  const [confirm, dialog] = useConfirm();
  const [values, setValues] = useState({
    title: stage?.title ?? '',
    description: stage?.description ?? '',
    image_url: stage?.image_url ?? null,
  });
  const [steps, setSteps] = useState<string[]>(stage?.steps ?? []);
  const { form, busy, submit } = useSubmit();
  async function save(e: FormEvent) {
    await submit(e, stageBodySchema, { ...values, steps }, (body) => calls.save(stage, body));
  }
  async function remove() {
    if (!stage) return;
    if (
      !(await confirm(`Delete stage ${stage.id}, “${stage.title}”? Members' ticks on its checklist are deleted too.`, {
        confirmLabel: 'Delete stage',
        danger: true,
      }))
    )
      return;
    await calls.remove(stage);
  }
  return (
    <>
      <AdminTitle
        title={stage ? `Stage ${stage.id}: ${stage.title}` : 'New stage'}
        description={stage ? undefined : 'A new stage takes the next number after the last stage.'}
      />
      <Panel>
        <form noValidate onSubmit={save} className={formClass}>
          <Field
            label="Title"
            value={values.title}
            error={form.of('title')}
            onChange={(e) => setValues((v) => ({ ...v, title: e.target.value }))}
          />
          <TextArea
            label="Description"
            value={values.description}
            error={form.of('description')}
            onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
          />
          <ImageField
            label="Image"
            value={values.image_url}
            error={form.of('image_url')}
            onChange={(url) => setValues((v) => ({ ...v, image_url: url }))}
          />
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-1 text-lg font-bold">Checklist</legend>
            <p className="text-sm text-muted">{CONTENT.stepHashHint}</p>
            {steps.map((s, i) => (
              <div key={i} className="flex flex-col gap-1 sm:flex-row sm:items-start sm:gap-2">
                <Field
                  label={`Step ${i + 1}`}
                  className="flex-1"
                  value={s}
                  error={form.of(`steps.${i}`)}
                  onChange={(e) => setSteps((list) => list.map((x, j) => (j === i ? e.target.value : x)))}
                />
                <div className="self-end sm:mt-7 sm:self-start">
                  <RowTools
                    label={`step ${i + 1}`}
                    index={i}
                    count={steps.length}
                    onMove={(by) => setSteps((list) => moved(list, i, by))}
                    onRemove={() => setSteps((list) => list.filter((_, j) => j !== i))}
                  />
                </div>
              </div>
            ))}
            <AddButton onClick={() => setSteps((list) => [...list, ''])}>Add step</AddButton>
          </fieldset>
          <SaveRow
            error={form.formError}
            busy={busy}
            label={stage ? 'Save stage' : 'Create stage'}
            extra={
              stage ? (
                <Button variant="danger" onClick={() => void remove()}>
                  <Trash2 aria-hidden className="size-5" /> Delete stage
                </Button>
              ) : null
            }
          />
        </form>
      </Panel>
      {dialog}
    </>
  );
}
