/**
 * The @react-email components the mail layout and templates use, each from its own small package.
 * Not from @react-email/components: that package loads every component it has as it is imported,
 * Tailwind's compiler, Prism, a Markdown parser and a second copy of the renderer among them, and
 * they stayed in the server's memory from its first mail on (docs/benchmarks.md, "Startup
 * memory on the embedded database"). The renderer itself, with react-dom's server renderer, is loaded
 * with the first mail (render.ts).
 */
export { Body } from '@react-email/body';
export { Button } from '@react-email/button';
export { Container } from '@react-email/container';
export { Head } from '@react-email/head';
export { Hr } from '@react-email/hr';
export { Html } from '@react-email/html';
export { Link } from '@react-email/link';
export { Preview } from '@react-email/preview';
export { Section } from '@react-email/section';
export { Text } from '@react-email/text';
