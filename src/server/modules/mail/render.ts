import { createElement } from 'react';
import { notificationTopic } from '#shared/mail';
import type { AppConfig } from '#server/config';
import { PermanentJobError } from '#server/lib/jobs';
import type { MailContext, MailKind } from './kind.ts';
import { MAIL_KINDS } from './kinds.ts';
import { Layout } from './layout.tsx';
import type { UnsubscribeTokens } from './unsubscribe.ts';

export interface RenderedMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
}

function formatter(timeZone: string | null, options: Intl.DateTimeFormatOptions, withZone: boolean) {
  for (const zone of [timeZone, 'UTC']) {
    if (!zone) continue;
    try {
      const f = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: zone });
      return (at: Date | string) => `${f.format(new Date(at))}${withZone ? ` (${zone})` : ''}`;
    } catch {
      // not a time zone this runtime knows: the next one
    }
  }
  return (at: Date | string) => new Date(at).toISOString();
}

/**
 * One mail as it is sent: the kind's React template inside the shared layout, rendered to HTML and
 * plain text, with its subject and, for mail that can be turned off, the unsubscribe headers.
 */
export async function renderMailFor(
  config: Pick<AppConfig, 'appUrl' | 'mail'>,
  tokens: UnsubscribeTokens,
  kindName: string,
  data: unknown,
  to: { address: string; name: string; userId: number | null; timeZone: string | null },
): Promise<RenderedMail> {
  const kind = (MAIL_KINDS as Record<string, MailKind>)[kindName];
  if (!kind) throw new PermanentJobError(`No mail is defined as "${kindName}".`);
  const parsed = kind.schema.parse(data);
  const ctx: MailContext = {
    name: to.name,
    academyName: config.mail.academyName,
    link: (path: string) => `${config.appUrl}${path.startsWith('/') ? path : `/${path}`}`,
    when: formatter(to.timeZone, { dateStyle: 'full', timeStyle: 'short' }, true),
    day: formatter(to.timeZone, { day: 'numeric', month: 'long', year: 'numeric' }, false),
  };
  const topic = notificationTopic(kind.topic)!;
  const token = !topic.essential && to.userId !== null ? tokens.create(to.userId, kind.topic) : null;
  const element = createElement(Layout, {
    frame: {
      academyName: config.mail.academyName,
      postalAddress: config.mail.postalAddress,
      unsubscribeUrl: token ? `${config.appUrl}/unsubscribe/${token}` : null,
      settingsUrl: ctx.link('/account/notifications'),
    },
    preview: kind.preview(parsed, ctx),
    children: kind.body(parsed, ctx),
  });
  // loaded with the first mail: react-dom's server renderer comes with it, in a process that may not
  // send a mail for hours
  const { render } = await import('@react-email/render');
  const html = await render(element);
  const text = await render(element, { plainText: true });
  const headers: Record<string, string> = {};
  if (token) {
    // RFC 8058: a mail client's one-click unsubscribe POSTs "List-Unsubscribe=One-Click" to the https address
    const targets = [`<${config.appUrl}/api/unsubscribe/${token}>`];
    if (config.mail.unsubscribeMailto)
      targets.push(`<mailto:${config.mail.unsubscribeMailto}?subject=unsubscribe%20${token}>`);
    headers['List-Unsubscribe'] = targets.join(', ');
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  return { to: to.address, subject: kind.subject(parsed, ctx), html, text, headers };
}
