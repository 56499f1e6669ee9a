import { useState, type FormEvent } from 'react';
import { Link } from '#client/components/ui/link.tsx';
import { Trash2 } from 'lucide-react';
import {
  ACHIEVEMENT_RULE_LABELS,
  ACHIEVEMENT_RULES,
  achievementBodySchema,
  type AdminAchievement,
} from '#shared/admin-content';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { useConfirm } from '#client/components/ui/confirm.tsx';
import { DataTable, useAdminList, type Column } from '#client/components/admin/list.tsx';
import { AdminTitle, ImageField, NewLink, Panel, Select, TextArea } from '#client/components/admin/form.tsx';
import { EditPage, NameSlugFields, SaveRow, type Resource } from './parts.tsx';
import { formClass, num, useEditorCalls, useSubmit } from './editing.ts';

const ACHIEVEMENTS: Resource = {
  noun: 'Achievement',
  plural: 'Achievements',
  api: '/api/admin/achievements',
  page: '/admin/achievements',
  queryKey: 'admin-achievement',
  listKey: 'admin-achievements',
};

/** /admin/achievements */
export function AdminAchievementsPage() {
  const result = useAdminList<AdminAchievement>('admin-achievements', '/api/admin/achievements');
  const columns: Column<AdminAchievement>[] = [
    {
      key: 'name',
      wrap: true,
      label: 'Name',
      sortable: true,
      render: (a) => (
        <Link
          to={`/admin/achievements/${a.id}`}
          className="inline-flex items-center gap-2 font-semibold text-accent-strong hover:underline"
        >
          <img src={a.image_url} alt="" className="size-8 rounded-lg" /> {a.name}
        </Link>
      ),
    },
    { key: 'rule', label: 'Counts', sortable: true, render: (a) => ACHIEVEMENT_RULE_LABELS[a.rule] ?? a.rule },
    { key: 'threshold', label: 'Threshold', sortable: true, render: (a) => a.threshold },
    { key: 'position', label: 'Position', sortable: true, render: (a) => a.position },
    {
      key: 'unlocked_by',
      wrap: true,
      label: 'Unlocked by',
      render: (a) => `${a.unlocked_by} ${a.unlocked_by === 1 ? 'member' : 'members'}`,
    },
  ];
  return (
    <>
      <AdminTitle
        title="Achievements"
        description="Badges members unlock when a count reaches its threshold."
        actions={<NewLink to="/admin/achievements/new">New achievement</NewLink>}
      />
      <DataTable
        result={result}
        columns={columns}
        rowKey={(a) => a.id}
        searchLabel="Search achievements"
        empty="No achievements match."
      />
    </>
  );
}

/** /admin/achievements/new and /admin/achievements/:id */
export function AdminAchievementEditPage() {
  return (
    <EditPage<AdminAchievement> resource={ACHIEVEMENTS}>
      {(achievement) => <AchievementEditor achievement={achievement} />}
    </EditPage>
  );
}

function AchievementEditor({ achievement }: { achievement: AdminAchievement | null }) {
  const calls = useEditorCalls<AdminAchievement>(ACHIEVEMENTS);
  const [confirm, dialog] = useConfirm();
  const [values, setValues] = useState({
    name: achievement?.name ?? '',
    slug: achievement?.slug ?? '',
    description: achievement?.description ?? '',
    image_url: achievement?.image_url ?? null,
    rule: achievement?.rule ?? 'lessons',
    threshold: String(achievement?.threshold ?? 1),
    position: String(achievement?.position ?? 0),
  });
  const set = (patch: Partial<typeof values>) => setValues((v) => ({ ...v, ...patch }));
  const { form, busy, submit } = useSubmit();
  async function save(e: FormEvent) {
    await submit(
      e,
      achievementBodySchema,
      {
        ...values,
        image_url: values.image_url ?? '',
        threshold: values.threshold.trim() === '' ? undefined : Number(values.threshold),
        position: num(values.position),
      },
      (body) =>
        // the answer does not count who unlocked it: keep the count the page already has
        calls.save(achievement, body, (saved, before) => ({ ...saved, unlocked_by: before.unlocked_by })),
    );
  }
  async function remove() {
    if (!achievement) return;
    const n = achievement.unlocked_by;
    if (
      !(await confirm(
        `Delete “${achievement.name}”?${n ? ` ${n} ${n === 1 ? 'member has' : 'members have'} unlocked it; it disappears from their profile.` : ''}`,
        { confirmLabel: 'Delete achievement', danger: true },
      ))
    )
      return;
    await calls.remove(achievement);
  }
  return (
    <>
      <AdminTitle title={achievement ? achievement.name : 'New achievement'} />
      <Panel>
        <form noValidate onSubmit={save} className={formClass}>
          <NameSlugFields
            label="Name"
            name={values.name}
            slug={values.slug}
            nameError={form.of('name')}
            slugError={form.of('slug')}
            saved={!!achievement}
            onChange={({ name, slug }) => set({ name, slug })}
          />
          <TextArea
            label="Description"
            value={values.description}
            error={form.of('description')}
            onChange={(e) => set({ description: e.target.value })}
          />
          <ImageField
            label="Image"
            value={values.image_url}
            error={form.of('image_url')}
            onChange={(url) => set({ image_url: url })}
          />
          <div className="grid gap-4 sm:grid-cols-3">
            <Select
              label="Counts"
              value={values.rule}
              options={ACHIEVEMENT_RULES.map((r): [string, string] => [r, ACHIEVEMENT_RULE_LABELS[r]])}
              error={form.of('rule')}
              onChange={(e) => set({ rule: e.target.value as typeof values.rule })}
            />
            <Field
              label="Threshold"
              type="number"
              inputMode="numeric"
              min={1}
              value={values.threshold}
              error={form.of('threshold')}
              hint="Unlocked when the count reaches this."
              onChange={(e) => set({ threshold: e.target.value })}
            />
            <Field
              label="Position"
              type="number"
              inputMode="numeric"
              min={0}
              value={values.position}
              error={form.of('position')}
              onChange={(e) => set({ position: e.target.value })}
            />
          </div>
          <SaveRow
            error={form.formError}
            busy={busy}
            label={achievement ? 'Save achievement' : 'Create achievement'}
            extra={
              achievement ? (
                <Button variant="danger" onClick={() => void remove()}>
                  <Trash2 aria-hidden className="size-5" /> Delete achievement
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
