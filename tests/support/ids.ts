let seq = 0;
/** an id or name no other test (in this process or another) uses */
export const uniq = (prefix: string) => `${prefix}-${process.pid}-${++seq}-${Math.random().toString(36).slice(2, 7)}`;
