/**
 * Headers every response carries. API responses are never framed, sniffed or cached by
 * intermediaries unless a handler says otherwise; HTML pages get their own CSP from the portal.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
});

/** CSP for the server-rendered pages and the portal: own scripts only, no inline script. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

export function withSecurityHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = { ...SECURITY_HEADERS };
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}
