import type { ReactNode } from 'react';
import { Body, Button, Container, Head, Hr, Html, Link, Preview, Section, Text } from './components.ts';

/**
 * The one layout every mail uses (docs/mail.md): a 600 px table, inline styles only (many clients
 * drop <style>), colours chosen to stay readable when a client darkens the mail, and the academy's
 * name and postal address in the footer, with the unsubscribe link for mail that can be turned off.
 */
export interface MailFrame {
  academyName: string;
  postalAddress: string;
  /** where this kind of mail can be turned off (none for account and billing mail) */
  unsubscribeUrl: string | null;
  settingsUrl: string;
}

const colours = {
  page: '#f5f5f4',
  card: '#ffffff',
  text: '#1c1917',
  muted: '#57534e',
  line: '#e7e5e4',
  accent: '#c2410c',
  accentText: '#ffffff',
};

const font = "Inter, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

// clients that honour prefers-color-scheme get the dark theme's colours; the rest keep the light ones,
// which a client's own darkening can invert without losing contrast (no images behind text)
const darkCss = `
  :root { color-scheme: light dark; supported-color-schemes: light dark; }
  @media (prefers-color-scheme: dark) {
    .bb-page, .bb-page > table > tbody > tr > td { background-color: #0c0a09 !important; }
    .bb-line { border-color: #44403c !important; }
    .bb-card { background-color: #1c1917 !important; border-color: #44403c !important; }
    .bb-text { color: #f5f5f4 !important; }
    .bb-muted { color: #a8a29e !important; }
    .bb-link { color: #fb923c !important; }
  }
`;

export function Layout(props: { frame: MailFrame; preview: string; children: ReactNode }) {
  const { frame } = props;
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <style>{darkCss}</style>
      </Head>
      <Preview>{props.preview}</Preview>
      <Body
        className="bb-page"
        style={{ backgroundColor: colours.page, margin: 0, padding: '24px 0', fontFamily: font }}
      >
        <Container style={{ maxWidth: '600px', width: '100%', margin: '0 auto' }}>
          <Section style={{ padding: '0 16px 16px' }}>
            <Text
              className="bb-link"
              style={{ fontSize: '20px', fontWeight: 700, color: colours.accent, margin: 0, letterSpacing: '-0.01em' }}
            >
              {frame.academyName}
            </Text>
          </Section>
          <Section
            className="bb-card"
            style={{
              backgroundColor: colours.card,
              border: `1px solid ${colours.line}`,
              borderRadius: '12px',
              padding: '24px',
            }}
          >
            {props.children}
          </Section>
          <Section style={{ padding: '16px' }}>
            <Text
              className="bb-muted"
              style={{ fontSize: '13px', lineHeight: '20px', color: colours.muted, margin: 0 }}
            >
              {frame.academyName} · {frame.postalAddress}
            </Text>
            <Text
              className="bb-muted"
              style={{ fontSize: '13px', lineHeight: '20px', color: colours.muted, margin: '8px 0 0' }}
            >
              {frame.unsubscribeUrl ? (
                <>
                  <Link className="bb-link" href={frame.unsubscribeUrl} style={{ color: colours.accent }}>
                    Unsubscribe from these e-mails
                  </Link>
                  {' · '}
                </>
              ) : (
                <>This e-mail is about your account or billing, so it cannot be turned off. </>
              )}
              <Link className="bb-link" href={frame.settingsUrl} style={{ color: colours.accent }}>
                Notification settings
              </Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

export function Heading(props: { children: ReactNode }) {
  return (
    <Text
      className="bb-text"
      style={{ fontSize: '22px', lineHeight: '30px', fontWeight: 700, color: colours.text, margin: '0 0 16px' }}
    >
      {props.children}
    </Text>
  );
}

export function Paragraph(props: { children: ReactNode; muted?: boolean }) {
  return (
    <Text
      className={props.muted ? 'bb-muted' : 'bb-text'}
      style={{
        fontSize: props.muted ? '14px' : '16px',
        lineHeight: props.muted ? '22px' : '26px',
        color: props.muted ? colours.muted : colours.text,
        margin: '0 0 16px',
        // a long address (a link written out, an IPv6 address) wraps instead of widening a phone's screen
        overflowWrap: 'anywhere',
        wordBreak: 'break-word',
      }}
    >
      {props.children}
    </Text>
  );
}

/** a numbered list of steps, in the paragraph's type */
export function Steps(props: { children: ReactNode }) {
  return (
    <ol
      className="bb-text"
      style={{
        margin: '0 0 16px',
        paddingLeft: '24px',
        fontSize: '16px',
        lineHeight: '26px',
        color: colours.text,
        overflowWrap: 'anywhere',
        wordBreak: 'break-word',
      }}
    >
      {props.children}
    </ol>
  );
}

/** the mail's one main action: a 44 px tall button, its address repeated in the plain-text part */
export function Action(props: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: '8px 0 20px' }}>
      <Button
        href={props.href}
        style={{
          backgroundColor: colours.accent,
          color: colours.accentText,
          fontSize: '16px',
          fontWeight: 600,
          lineHeight: '20px',
          padding: '14px 20px',
          borderRadius: '8px',
          textDecoration: 'none',
          display: 'inline-block',
        }}
      >
        {props.children}
      </Button>
    </Section>
  );
}

export function InlineLink(props: { href: string; children: ReactNode }) {
  return (
    <Link className="bb-link" href={props.href} style={{ color: colours.accent, textDecoration: 'underline' }}>
      {props.children}
    </Link>
  );
}

/** label and value rows (a receipt's amount, a date) */
export function Facts(props: { rows: Array<[string, string]> }) {
  return (
    <Section style={{ margin: '0 0 16px' }}>
      <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ borderCollapse: 'collapse' }}>
        <tbody>
          {props.rows.map(([label, value]) => (
            <tr key={label}>
              <td
                className="bb-muted bb-line"
                style={{
                  padding: '6px 0',
                  fontSize: '14px',
                  color: colours.muted,
                  borderBottom: `1px solid ${colours.line}`,
                }}
              >
                {label}
              </td>
              <td
                className="bb-text bb-line"
                align="right"
                style={{
                  padding: '6px 0',
                  fontSize: '14px',
                  fontWeight: 600,
                  color: colours.text,
                  borderBottom: `1px solid ${colours.line}`,
                  overflowWrap: 'anywhere',
                  wordBreak: 'break-word',
                }}
              >
                {value}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

export function Rule() {
  return <Hr className="bb-line" style={{ borderColor: colours.line, margin: '16px 0' }} />;
}
