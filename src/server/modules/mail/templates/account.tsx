import { z } from '#shared/zod';
import { defineMail } from '../kind.ts';
import { Action, Heading, InlineLink, Paragraph, Steps } from '../layout.tsx';

/** Account mail: always sent, never turned off (topic 'account'). */

export const welcome = defineMail({
  topic: 'account',
  label: 'Sent once, when a member registers.',
  schema: z.object({}),
  subject: (_d, ctx) => `Welcome to ${ctx.academyName}`,
  preview: () => 'Your first steps: a placement check, your first lesson and the metronome.',
  body: (_d, ctx) => (
    <>
      <Heading>{`Welcome to ${ctx.academyName}, ${ctx.name}!`}</Heading>
      <Paragraph>
        Your account is ready. A good first step is the placement check: a few questions about your playing that point
        you to the right stage and lessons.
      </Paragraph>
      <Action href={ctx.link('/placement')}>Find my starting point</Action>
      <Paragraph>
        Then open your <InlineLink href={ctx.link('/dashboard')}>dashboard</InlineLink> to see your lessons, your
        practice streak and what the community is talking about.
      </Paragraph>
      <Paragraph muted>Happy drumming, the {ctx.academyName} team</Paragraph>
    </>
  ),
});

export const passwordReset = defineMail({
  topic: 'account',
  label: 'Sent when someone asks for a password reset link for the address (the link works once, for a limited time).',
  secret: true,
  schema: z.object({ link: z.string().url(), minutes: z.number().int().positive() }),
  subject: (_d, ctx) => `Reset your ${ctx.academyName} password`,
  preview: (d) => `The link works for ${d.minutes} minutes.`,
  body: (d, ctx) => (
    <>
      <Heading>Reset your password</Heading>
      <Paragraph>
        Hi {ctx.name}, someone (hopefully you) asked to reset your {ctx.academyName} password. Open this link within{' '}
        {d.minutes} minutes to choose a new one:
      </Paragraph>
      <Action href={d.link}>Choose a new password</Action>
      <Paragraph muted>
        Or paste this address into your browser: {d.link}
        <br />
        If you did not ask for this, you can ignore this e-mail: your password stays as it is.
      </Paragraph>
    </>
  ),
});

export const passwordChanged = defineMail({
  topic: 'account',
  label: 'Sent when the password changes (from the account settings or with a reset link).',
  schema: z.object({ at: z.iso.datetime(), how: z.enum(['reset', 'change']), ip: z.string().max(100) }),
  subject: (_d, ctx) => `Your ${ctx.academyName} password was changed`,
  preview: (d, ctx) => `Changed on ${ctx.when(d.at)}. If this was not you, act now.`,
  body: (d, ctx) => (
    <>
      <Heading>Your password was changed</Heading>
      <Paragraph>
        Hi {ctx.name}, the password of your {ctx.academyName} account was changed on {ctx.when(d.at)},{' '}
        {d.how === 'reset' ? 'with a password reset link' : 'from your account settings'}, from the address {d.ip}.
      </Paragraph>
      <Paragraph>
        {d.how === 'reset'
          ? 'Every device that was signed in to your account has been signed out, and any other password reset link we sent you no longer works.'
          : 'Every other device that was signed in to your account has been signed out, and any password reset link we sent you no longer works.'}
      </Paragraph>
      <Paragraph>If this was you, there is nothing else to do.</Paragraph>
      <Paragraph>If it was not you, someone else may know your password or be able to read your e-mail:</Paragraph>
      <Steps>
        <li>
          Choose a new password now:{' '}
          <InlineLink href={ctx.link('/password/forgot')}>{ctx.link('/password/forgot')}</InlineLink>
        </li>
        <li>Contact our support team by replying to this email, so we can check your account with you.</li>
        <li>Change the password of your email account too.</li>
      </Steps>
    </>
  ),
});

export const emailChanged = defineMail({
  topic: 'account',
  label: "Sent to the old address when a member's e-mail address changes.",
  schema: z.object({ from: z.string().email(), to: z.string().email(), at: z.iso.datetime() }),
  subject: (_d, ctx) => `Your ${ctx.academyName} e-mail address was changed`,
  preview: (d) => `Mail now goes to ${d.to}.`,
  body: (d, ctx) => (
    <>
      <Heading>Your e-mail address was changed</Heading>
      <Paragraph>
        Hi {ctx.name}, on {ctx.when(d.at)} the e-mail address of your {ctx.academyName} account was changed from{' '}
        {d.from} to {d.to}. You sign in with the new address from now on, and this is the last e-mail we send to this
        one.
      </Paragraph>
      <Paragraph>
        If this was not you, reply to this e-mail straight away so our support team can give the account back to you.
      </Paragraph>
    </>
  ),
});
