import { useQuery } from '@tanstack/react-query';
import type { AdminMailResponse } from '#shared/mail';
import { get } from '#client/lib/api.ts';
import { AdminTitle } from '#client/components/admin/form.tsx';
import { LoadError } from '#client/components/admin/list.tsx';
import { KeptMailList } from '#client/components/kept-mail.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';

/**
 * /admin/mail: the mail this server kept instead of sending. Without SMTP_URL nothing leaves the
 * server, and password-reset links must never be readable by anyone but admins (docs/security.md).
 */
export function AdminMailPage() {
  const q = useQuery({ queryKey: ['admin-mail'], queryFn: () => get<AdminMailResponse>('/api/admin/mail') });
  return (
    <div className="flex flex-col gap-6">
      <AdminTitle
        title="Mail"
        description={
          q.data?.delivery === 'smtp'
            ? 'Mail is delivered through your SMTP server (SMTP_URL), so none is kept here.'
            : 'No SMTP server is set (SMTP_URL), so mail is not delivered: it is kept here, newest first. Members do not receive these messages until SMTP_URL is set.'
        }
      />
      {q.isPending ? (
        <Spinner />
      ) : q.isError ? (
        <LoadError error={q.error} />
      ) : (
        <KeptMailList
          messages={q.data.messages}
          empty={q.data.delivery === 'smtp' ? 'Mail goes out through SMTP.' : 'No mail has been kept yet.'}
        />
      )}
    </div>
  );
}
