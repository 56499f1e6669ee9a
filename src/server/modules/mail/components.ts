import { createElement, type ComponentProps } from 'react';
import type * as ReactEmail from '@react-email/components';

/**
 * The @react-email components the mail layout and templates use, loaded when the first mail is rendered
 * (`renderMailFor` awaits `loadMailComponents`): @react-email/components loads every component it has,
 * Tailwind's compiler, Prism and a Markdown parser among them, which was a large share of the server's
 * memory from its start in a process that may not send a mail for hours. Each export here stands in for
 * the component of the same name and renders it, so a template reads as with the package itself.
 */
let loaded: typeof ReactEmail | null = null;

export async function loadMailComponents(): Promise<void> {
  loaded ??= await import('@react-email/components');
}

type Used = 'Body' | 'Button' | 'Container' | 'Head' | 'Hr' | 'Html' | 'Link' | 'Preview' | 'Section' | 'Text';

function standIn<K extends Used>(name: K): (typeof ReactEmail)[K] {
  const component = (props: ComponentProps<(typeof ReactEmail)[K]>) => {
    if (!loaded) throw new Error(`<${name}> was rendered before loadMailComponents()`);
    return createElement(loaded[name] as (p: typeof props) => ReturnType<typeof createElement>, props);
  };
  component.displayName = name;
  return component as unknown as (typeof ReactEmail)[K];
}

export const Body = standIn('Body');
export const Button = standIn('Button');
export const Container = standIn('Container');
export const Head = standIn('Head');
export const Hr = standIn('Hr');
export const Html = standIn('Html');
export const Link = standIn('Link');
export const Preview = standIn('Preview');
export const Section = standIn('Section');
export const Text = standIn('Text');
