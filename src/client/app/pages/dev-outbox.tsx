import { useQuery } from '@tanstack/react-query';
import type { KeptMail } from '#shared/mail';
import { get } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { KeptMailList } from '#client/components/kept-mail.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { PageTitle } from './common.tsx';
import { ErrorPage } from './error.tsx';

/** Local development only (`npm run dev` without SMTP_URL): the mail that would have been sent. */
export function DevOutboxPage() {
  const enabled = pageConfig().dev;
  const outbox = useQuery({
    queryKey: ['dev', 'outbox'],
    queryFn: () => get<{ messages: KeptMail[] }>('/api/dev/outbox'),
    enabled,
  });
  if (!enabled) return <ErrorPage status={404} message="We could not find what you were looking for." />;
  return (
    <>
      <PageTitle title="Mail outbox" subtitle="Development only: mail lands here while no SMTP_URL is set." />
      {outbox.isPending ? <Spinner /> : <KeptMailList messages={outbox.data?.messages ?? []} empty="No mail yet." />}
    </>
  );
}
