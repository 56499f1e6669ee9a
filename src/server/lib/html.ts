/** Text made safe to put inside HTML our code builds (notification bodies): nothing is interpreted. */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
