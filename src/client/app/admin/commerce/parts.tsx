import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, get } from '#client/lib/api.ts';
import { StateBadge, useFormErrors } from '#client/components/admin/form.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import { formatWhen } from '#client/lib/dates.ts';

// What the commerce pages share: dates, labels, filter options, state badges, the link to a member,
// and the load and save of a settings page.

export const date = (iso: string | null) =>
  iso ? formatWhen(iso, 'en-US', { year: 'numeric', month: 'short', day: 'numeric' }) : '—';
export const label = (s: string) => (s.charAt(0).toUpperCase() + s.slice(1)).replace(/_/g, ' ');
export const opts = (values: readonly string[], all: string): Array<[string, string]> => [
  ['', all],
  ...values.map((v) => [v, label(v)] as [string, string]),
];
export const Status = ({ value }: { value: string }) => <StateBadge state={value}>{label(value)}</StateBadge>;

export function MemberLink({ member }: { member: { id: number; name: string; email: string } | null }) {
  if (!member) return <span className="text-muted">a deleted member</span>;
  return (
    <span className="flex min-w-0 flex-col">
      <a href={`/admin/members/${member.id}`} className="font-semibold text-accent-strong hover:underline">
        {member.name}
      </a>
      <span className="break-all text-sm text-muted">{member.email}</span>
    </span>
  );
}

/** A settings page's object: loaded from `url`, saved with PUT, the form's errors from the server's answer. */
export function useSetting<T>(key: string, url: string) {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: [key], queryFn: () => get<T>(url) });
  const form = useFormErrors();
  const save = useMutation({
    mutationFn: (body: T) => api<T>('PUT', url, body),
    onSuccess: (saved) => {
      toast('Saved.');
      qc.setQueryData([key], saved);
    },
    onError: (err) => form.fromServer(err),
  });
  return { query, form, save };
}
