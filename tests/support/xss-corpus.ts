// Stored-XSS payloads, shared by the browser spec (tests/e2e/xss.spec.ts) and the
// notification-body sanitiser test (src/server/modules/notifications/sanitise.test.ts).

/** Each payload sets window.__xss and calls alert() if it ever runs. At most 60 characters (the shortest field). */
export const XSS_CORPUS = [
  `<img src=x onerror="window.__xss=1;alert(1)">`,
  `<script>window.__xss=2;alert(2)</script>`,
  `<svg onload="window.__xss=3;alert(3)">`,
  `"><img src=x onerror="window.__xss=4;alert(4)">`,
  `'><svg/onload=window.__xss=5;alert(5)>`,
  `[click](javascript:window.__xss=6;alert(6))`,
  `<a href="javascript:window.__xss=7;alert(7)">x7</a>`,
  `<iframe srcdoc="<script>parent.__xss=8</script>">`,
  `<div style="background:url(javascript:alert(9))">9</div>`,
  `<style>@import 'javascript:alert(10)';</style>`,
  `\u202Egnp.<img src=x onerror=window.__xss=11>\u202C`,
  `javascript:window.__xss=12;alert(12)`,
  `<details open ontoggle="window.__xss=13;alert(13)">`,
  `{{constructor.constructor('window.__xss=14')()}}`,
  `</script><script>window.__xss=15;alert(15)</script>`,
  `<body onload="window.__xss=16">\u200B\uFEFFx`,
] as const;
