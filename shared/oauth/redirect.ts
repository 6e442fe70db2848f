import type { RedirectTarget } from '../model.js';

/** The client's redirect URI with OAuth parameters added in the query or the fragment. */
export function redirectWith(target: RedirectTarget, values: Record<string, string | undefined>): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out.set(k, v);
  if (target.state !== undefined) out.set('state', target.state);
  if (target.mode === 'fragment') return `${target.redirectUri}#${out.toString()}`;
  return `${target.redirectUri}${target.redirectUri.includes('?') ? '&' : '?'}${out.toString()}`;
}
