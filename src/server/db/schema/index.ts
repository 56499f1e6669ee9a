// One file per domain; each later feature adds its own file and one export line here.
export * from './users.ts';
export * from './notifications.ts';
export * from './learning.ts';
export * from './community.ts';
export * from './social.ts';
export * from './contact.ts';
export * from './progress.ts';
export * from './diagnostic.ts';
export * from './songs.ts';
export * from './metronome.ts';
export * from './commerce.ts';
export * from './mentorship.ts';
export * from './admin.ts';
export * from './mail.ts';
