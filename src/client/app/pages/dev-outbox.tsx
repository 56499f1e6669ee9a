import { useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { get } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { Card, PageTitle } from './common.tsx';
import { ErrorPage } from './error.tsx';

interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/** Plain text with its addresses made into links (nothing else is interpreted). */
function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s]+)/g);
  return <>{parts.map((p, i) => (/^https?:\/\//.test(p) ? <a key={i} href={p} className="break-all font-semibold text-accent-strong underline">{p}</a> : <span key={i}>{p}</span>))}</>;
}

/** Development only: the mail that would have been sent (no SMTP_URL set). */
export function DevOutboxPage() {
  const enabled = pageConfig().dev;
  const outbox = useQuery({ queryKey: ['dev', 'outbox'], queryFn: () => get<{ messages: OutboxMessage[] }>('/api/dev/outbox'), enabled });
  if (!enabled) return <ErrorPage status={404} message="We could not find what you were looking for." />;
  return (
    <>
      <PageTitle title="Mail outbox" subtitle="Development only: mail lands here while no SMTP_URL is set." />
      {outbox.isPending ? (
        <Spinner />
      ) : outbox.data?.messages.length ? (
        <div className="flex flex-col gap-4">
          {outbox.data.messages.map((m) => (
            <Card key={m.id}>
              <p className="text-sm text-muted">
                To {m.to} · {format(new Date(m.created_at), 'PPp')}
              </p>
              <h2 className="mt-1 text-lg font-bold">{m.subject}</h2>
              <pre className="mt-3 whitespace-pre-wrap font-sans text-base">
                <Linkified text={m.text} />
              </pre>
            </Card>
          ))}
        </div>
      ) : (
        <p className="text-muted">No mail yet.</p>
      )}
    </>
  );
}
