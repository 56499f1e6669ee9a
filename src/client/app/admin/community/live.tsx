import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { format } from 'date-fns';
import { MessageSquare, MessageSquareOff, Pencil, Plus, Radio, Square, Type } from 'lucide-react';
import { LIVE_TOPIC_MAX, liveShowSchema, liveShowTopicSchema, type AdminLiveShow } from '#shared/admin-community';
import { LIVE_STATUS_LABELS } from '#shared/live';
import { api, post } from '#client/lib/api.ts';
import { DeleteButton, useAdminAction } from '#client/components/admin/actions.tsx';
import {
  AdminTitle,
  FormButtons,
  Panel,
  StateBadge,
  StatusBadge,
  TextArea,
  useFormErrors,
} from '#client/components/admin/form.tsx';
import { DataTable, FilterSelect, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { toast } from '#client/components/ui/toast.tsx';

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
/** an ISO time as the datetime-local input shows it, in the admin's own time zone */
const toLocalInput = (iso: string) => format(new Date(iso), "yyyy-MM-dd'T'HH:mm");

/**
 * Scheduling or editing a show. The form is attached to its errors (`formRef`), so that the server's
 * answer, which comes once the busy Save button has lost focus, still marks the fields, is announced
 * and moves focus (components/ui/form-feedback.ts).
 */
function ShowForm({ show, onDone }: { show: AdminLiveShow | null; onDone: () => void }) {
  const [draft, setDraft] = useState({
    title: show?.title ?? '',
    description: show?.description ?? '',
    starts_at: show ? toLocalInput(show.starts_at) : '',
    video_url: show?.video_url ?? '',
  });
  const form = useFormErrors();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (body: unknown) =>
      show ? post(`/api/admin/live-shows/${show.id}`, body) : post('/api/admin/live-shows', body),
    onSuccess: () => {
      toast(show ? 'Show saved.' : 'Show scheduled.');
      void qc.invalidateQueries({ queryKey: ['admin-live-shows'] });
      onDone();
    },
    onError: (err) => form.fromServer(err),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const when = draft.starts_at ? new Date(draft.starts_at) : null;
    const body = form.check(liveShowSchema, {
      ...draft,
      starts_at: when && !Number.isNaN(when.getTime()) ? when.toISOString() : draft.starts_at,
    });
    if (body) save.mutate(body);
  };
  const set = (k: keyof typeof draft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [k]: e.target.value }));
  return (
    <Panel title={show ? `Edit “${show.title}”` : 'Schedule a show'} className="mb-6">
      <form
        ref={form.formRef}
        noValidate
        onSubmit={submit}
        className="flex flex-col gap-4"
        aria-label={show ? 'Edit show' : 'Schedule a show'}
      >
        <Field label="Title" value={draft.title} error={form.of('title')} onChange={set('title')} />
        <TextArea
          label="Description"
          rows={3}
          value={draft.description}
          error={form.of('description')}
          onChange={set('description')}
        />
        <div className="grid gap-4 md:grid-cols-2">
          <Field
            label="Starts at"
            type="datetime-local"
            value={draft.starts_at}
            error={form.of('starts_at')}
            hint={`Your time zone: ${timeZone()}`}
            onChange={set('starts_at')}
          />
          <Field
            label="Video address"
            type="url"
            inputMode="url"
            placeholder="https://www.youtube.com/watch?v=…"
            value={draft.video_url}
            error={form.of('video_url')}
            hint="A YouTube or Vimeo link; leave empty until you have it."
            onChange={set('video_url')}
          />
        </div>
        <FormButtons
          error={form.formError}
          busy={save.isPending}
          label={show ? 'Save show' : 'Schedule show'}
          onCancel={onDone}
        />
      </form>
    </Panel>
  );
}

function TopicForm({ show, onDone }: { show: AdminLiveShow; onDone: () => void }) {
  const [topic, setTopic] = useState(show.topic ?? '');
  const form = useFormErrors();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (value: string) =>
      post<{ data: AdminLiveShow }>(`/api/admin/live-shows/${show.id}/topic`, { topic: value }),
    onSuccess: (res) => {
      toast(res.data.topic ? 'Topic set. Viewers see it now.' : 'Topic cleared.');
      void qc.invalidateQueries({ queryKey: ['admin-live-shows'] });
      onDone();
    },
    onError: (err) => form.fromServer(err),
  });
  const submit = (value: string) => {
    const body = form.check(liveShowTopicSchema, { topic: value });
    if (body) save.mutate(body.topic);
  };
  return (
    <Panel title={`Chat topic of “${show.title}”`} className="mb-6">
      <form
        ref={form.formRef}
        noValidate
        aria-label="Chat topic"
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit(topic);
        }}
      >
        <Field
          label="Topic"
          value={topic}
          maxLength={LIVE_TOPIC_MAX + 50}
          error={form.of('topic')}
          hint="Shown above the chat to everyone watching."
          onChange={(e) => setTopic(e.target.value)}
        />
        <FormButtons error={form.formError} busy={save.isPending} label="Set topic" onCancel={onDone}>
          {show.topic ? (
            <Button type="button" variant="secondary" disabled={save.isPending} onClick={() => submit('')}>
              Clear topic
            </Button>
          ) : null}
        </FormButtons>
      </form>
    </Panel>
  );
}

/** Admin: live shows — schedule, edit, go live, chat open/closed, topic, delete. */
export function LiveShowsPage() {
  const result = useAdminList<AdminLiveShow>('admin-live-shows', '/api/admin/live-shows', ['status']);
  const [editing, setEditing] = useState<AdminLiveShow | 'new' | null>(null);
  const [topicOf, setTopicOf] = useState<AdminLiveShow | null>(null);
  const [confirm, dialog] = useConfirm();
  const change = useAdminAction({
    mutationFn: ({
      show,
      path,
      body,
    }: {
      show: AdminLiveShow;
      path: 'status' | 'chat';
      body: Record<string, unknown>;
      done: string;
    }) => post(`/api/admin/live-shows/${show.id}/${path}`, body),
    done: ({ done }) => done,
    invalidate: [['admin-live-shows']],
    errorFields: ['status', 'open'],
  });
  const remove = useAdminAction({
    mutationFn: (id: number) => api('DELETE', `/api/admin/live-shows/${id}`),
    done: 'Show deleted.',
    invalidate: [['admin-live-shows']],
  });
  const columns: Column<AdminLiveShow>[] = [
    {
      key: 'title',
      wrap: true,
      label: 'Show',
      sortable: true,
      render: (s) => (
        <span className="flex flex-col">
          <a href={s.url} className="font-semibold text-accent-strong hover:underline">
            {s.title}
          </a>
          {s.topic ? <span className="text-sm text-muted">Topic: {s.topic}</span> : null}
        </span>
      ),
    },
    {
      key: 'starts_at',
      label: 'Starts',
      sortable: true,
      render: (s) => <time dateTime={s.starts_at}>{format(new Date(s.starts_at), 'EEE d MMM yyyy, HH:mm')}</time>,
    },
    {
      key: 'status',
      label: 'Status',
      render: (s) => (
        <span className="flex flex-wrap gap-1">
          <StateBadge state={s.status}>{LIVE_STATUS_LABELS[s.status]}</StateBadge>
          <StatusBadge>{s.chat_open ? 'Chat open' : 'Chat closed'}</StatusBadge>
        </span>
      ),
    },
    {
      key: 'actions',
      label: 'Actions',
      render: (s) => (
        <span className="flex flex-wrap gap-1">
          <Button variant="secondary" aria-label={`Edit ${s.title}`} onClick={() => (setTopicOf(null), setEditing(s))}>
            <Pencil aria-hidden className="size-4" /> Edit
          </Button>
          {s.chat_open ? (
            <Button
              variant="secondary"
              disabled={change.isPending}
              onClick={() => change.mutate({ show: s, path: 'chat', body: { open: false }, done: 'Chat closed.' })}
            >
              <MessageSquareOff aria-hidden className="size-4" /> Close chat
            </Button>
          ) : (
            <Button
              variant="secondary"
              disabled={change.isPending}
              onClick={() => change.mutate({ show: s, path: 'chat', body: { open: true }, done: 'Chat open.' })}
            >
              <MessageSquare aria-hidden className="size-4" /> Open chat
            </Button>
          )}
          <Button variant="secondary" onClick={() => (setEditing(null), setTopicOf(s))}>
            <Type aria-hidden className="size-4" /> Topic
          </Button>
          {s.status === 'scheduled' ? (
            <Button
              variant="secondary"
              disabled={change.isPending}
              onClick={() =>
                change.mutate({ show: s, path: 'status', body: { status: 'live' }, done: 'The show is live.' })
              }
            >
              <Radio aria-hidden className="size-4" /> Mark live
            </Button>
          ) : null}
          {s.status === 'live' ? (
            <Button
              variant="secondary"
              disabled={change.isPending}
              onClick={() =>
                change.mutate({ show: s, path: 'status', body: { status: 'ended' }, done: 'The show has ended.' })
              }
            >
              <Square aria-hidden className="size-4" /> Mark ended
            </Button>
          ) : null}
          <DeleteButton
            label={`Delete ${s.title}`}
            question={`Delete the show “${s.title}” and its chat for good?`}
            confirm={confirm}
            disabled={remove.isPending}
            onConfirm={() => remove.mutate(s.id)}
          />
        </span>
      ),
    },
  ];
  return (
    <>
      <AdminTitle
        title="Live shows"
        description="Schedule shows, go live, and run the chat. Viewers see changes at once."
        actions={
          <Button onClick={() => (setTopicOf(null), setEditing('new'))}>
            <Plus aria-hidden className="size-4" /> Schedule a show
          </Button>
        }
      />
      {editing ? (
        <ShowForm
          key={editing === 'new' ? 'new' : editing.id}
          show={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
      {topicOf ? <TopicForm key={topicOf.id} show={topicOf} onDone={() => setTopicOf(null)} /> : null}
      <DataTable
        result={result}
        columns={columns}
        rowKey={(s) => s.id}
        searchLabel="Search titles"
        empty="No shows match."
        toolbar={
          <FilterSelect
            label="Status"
            name="status"
            list={result.list}
            options={[
              ['', 'All'],
              ['scheduled', 'Upcoming'],
              ['live', 'Live'],
              ['ended', 'Ended'],
            ]}
          />
        }
      />
      {dialog}
    </>
  );
}
