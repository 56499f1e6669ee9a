import { format } from 'date-fns';
import type { KeptMail } from '#shared/mail';

/** Plain text with its addresses made into links (nothing else is interpreted). */
function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s]+)/g);
  return (
    <>
      {parts.map((p, i) =>
        /^https?:\/\//.test(p) ? (
          <a key={i} href={p} className="break-all font-semibold text-accent-strong underline">
            {p}
          </a>
        ) : (
          <span key={i}>{p}</span>
        ),
      )}
    </>
  );
}

/** The mail the server kept instead of sending, newest first: the admin console's mail page and the dev outbox. */
export function KeptMailList({ messages, empty }: { messages: KeptMail[]; empty: string }) {
  if (messages.length === 0)
    return (
      <p className="rounded-2xl border border-dashed border-line bg-surface px-4 py-10 text-center text-muted">
        {empty}
      </p>
    );
  return (
    <ul className="flex flex-col gap-4">
      {messages.map((m) => (
        <li key={m.id} className="min-w-0 rounded-2xl border border-line bg-surface p-5 shadow-sm">
          <p className="wrap-anywhere text-sm text-muted">
            To {m.to} · {format(new Date(m.created_at), 'PPp')}
          </p>
          <h2 className="mt-1 wrap-anywhere text-lg font-bold">{m.subject}</h2>
          <pre className="mt-3 whitespace-pre-wrap wrap-anywhere font-sans text-base">
            <Linkified text={m.text} />
          </pre>
        </li>
      ))}
    </ul>
  );
}
