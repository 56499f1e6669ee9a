import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PLAN_KEYS, planLinksBodySchema, type PlanLinks } from '#shared/admin-content';
import { Field } from '#client/components/ui/field.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { Loading } from '#client/components/admin/list.tsx';
import { AdminTitle, Panel } from '#client/components/admin/form.tsx';
import { SaveRow, useLoaded } from './parts.tsx';
import { formClass, put, twoCols, useSubmit } from './editing.ts';

/** /admin/foot-speed */
export function AdminFootSpeedPage() {
  const query = useLoaded<{ links: PlanLinks }>(['admin-foot-speed'], '/api/admin/foot-speed');
  return (
    <>
      <AdminTitle
        title="Foot-speed plans"
        description="The practice plan the foot-speed diagnostic recommends for each skill level and pedal setup."
      />
      <Loading query={query}>{(data) => <FootSpeedEditor key={query.dataUpdatedAt} initial={data.links} />}</Loading>
    </>
  );
}

function FootSpeedEditor({ initial }: { initial: PlanLinks }) {
  const qc = useQueryClient();
  const [links, setLinks] = useState<PlanLinks>(initial);
  useEffect(() => setLinks(initial), [initial]);
  const { form, busy, submit } = useSubmit();
  async function save(e: FormEvent) {
    await submit(e, planLinksBodySchema, { links }, async (body) => {
      const res = await put<{ data: { links: PlanLinks } }>('/api/admin/foot-speed', body);
      qc.setQueryData(['admin-foot-speed'], res.data);
      toast('Practice-plan links saved.');
    });
  }
  return (
    <Panel>
      <form noValidate onSubmit={save} className={formClass}>
        <div className={twoCols}>
          {PLAN_KEYS.map(({ key, skill, pedal }) => (
            <Field
              key={key}
              label={`${skill}, ${pedal.toLowerCase()}`}
              type="url"
              inputMode="url"
              value={links[key] ?? ''}
              error={form.of(`links.${key}`)}
              onChange={(e) => setLinks((l) => ({ ...l, [key]: e.target.value }))}
            />
          ))}
        </div>
        <SaveRow error={form.formError} busy={busy} label="Save plan links" />
      </form>
    </Panel>
  );
}
