/**
 * A POST to the sandbox's own endpoints (no CSRF token: like a provider's site, its pages are not ours).
 * Answers the JSON body; a refusal throws its message.
 */
export async function sandboxPost(url: string, body: unknown = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  const data = (await res.json().catch(() => ({}))) as { url?: string; message?: string; error?: { message?: string } };
  if (!res.ok)
    throw new Error(data.error?.message ?? data.message ?? 'The sandbox could not do that. Please try again.');
  return data;
}
