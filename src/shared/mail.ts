/** A mail the server kept instead of delivering (no SMTP_URL): what the admin console and the dev outbox show. */
export interface KeptMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/**
 * GET /api/admin/mail. `delivery`: 'smtp' when SMTP_URL delivers mail (nothing is kept), 'kept' when
 * mail stays on the server for admins to read (the newest first, at most 50).
 */
export interface AdminMailResponse {
  delivery: 'smtp' | 'kept';
  messages: KeptMail[];
}
