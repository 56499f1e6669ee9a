import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { includedTax, receiptSellerSchema, type ReceiptSeller } from '#shared/receipts';
import { formatMoney } from '#shared/money';
import { api, get } from '#client/lib/api.ts';
import { AdminTitle, Panel, TextArea, useFormErrors } from '#client/components/admin/form.tsx';
import { LoadError } from '#client/components/admin/list.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.tsx';

const URL = '/api/admin/receipt-seller';
type Draft = { name: string; address: string; tax_label: string; tax_percent: string };

/** /admin/receipts: who receipts name as the seller, and their tax line (docs/product/receipts.md). */
export function ReceiptSellerPage() {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: ['admin-receipt-seller'], queryFn: () => get<ReceiptSeller>(URL) });
  const form = useFormErrors();
  const [d, setD] = useState<Draft | null>(null);
  useEffect(() => {
    if (query.data) setD({ ...query.data, tax_percent: String(query.data.tax_percent) });
  }, [query.data]);
  const save = useMutation({
    mutationFn: (body: ReceiptSeller) => api<ReceiptSeller>('PUT', URL, body),
    onSuccess: (saved) => {
      toast('Saved. New receipts use it; receipts already issued keep what they say.');
      qc.setQueryData(['admin-receipt-seller'], saved);
    },
    onError: (err) => form.fromServer(err),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!d) return;
    const body = form.check(receiptSellerSchema, {
      ...d,
      tax_percent: d.tax_percent.trim() === '' ? Number.NaN : Number(d.tax_percent),
    });
    if (body) save.mutate(body);
  }
  const percent = d ? Number(d.tax_percent) || 0 : 0;
  return (
    <>
      <AdminTitle
        title="Receipts"
        description="The seller every new receipt and credit note names, and its tax line. Receipts already issued keep what they said."
      />
      {query.isError ? (
        <LoadError error={query.error} />
      ) : !d ? (
        <Spinner />
      ) : (
        <Panel>
          <form noValidate aria-label="Receipt seller" className="flex flex-col gap-4" onSubmit={submit}>
            <Field
              label="Seller name"
              value={d.name}
              maxLength={200}
              error={form.of('name')}
              onChange={(e) => setD({ ...d, name: e.target.value })}
            />
            <TextArea
              label="Address"
              value={d.address}
              maxLength={500}
              hint="One line each, as it should print."
              error={form.of('address')}
              onChange={(e) => setD({ ...d, address: e.target.value })}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Tax line label"
                value={d.tax_label}
                maxLength={40}
                error={form.of('tax_label')}
                onChange={(e) => setD({ ...d, tax_label: e.target.value })}
              />
              <Field
                label="Tax included in prices (%)"
                inputMode="decimal"
                value={d.tax_percent}
                error={form.of('tax_percent')}
                hint={`A $29.00 payment then shows ${d.tax_label || 'Tax'} ${formatMoney(includedTax(29_00, percent))}.`}
                onChange={(e) => setD({ ...d, tax_percent: e.target.value })}
              />
            </div>
            <FormError message={form.formError} />
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                Save
              </Button>
            </div>
          </form>
        </Panel>
      )}
    </>
  );
}
