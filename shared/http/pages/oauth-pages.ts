import { logoUrl } from '../../domain/logo-url.js';
import type { AuthorizeOutcome, Consent } from '../../oauth/authorize-endpoint.js';
import type { LogoutOutcome } from '../../oidc/logout.js';
import { escapeHtml, html, redirect } from '../response.js';
import { PAGE_CSP } from '../security-headers.js';
import { clearedSessionCookie } from '../session.js';
import type { HttpResult } from '../types.js';

/**
 * The server-rendered pages of /oauth2/authorize (the consent page, and the error page shown when
 * the request cannot be sent back to the client) and of /oauth2/logout (the sign-out question and
 * "You are signed out"). No scripts and no inline styles (PAGE_CSP).
 */
function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Gatehouse</title>
<link rel="stylesheet" href="/styles.css">
</head>
<body>
<main class="oauth-page">
${body}
</main>
</body>
</html>
`;
}

const NO_CACHE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export function errorPage(status: number, error: string, description: string): HttpResult {
  const body = `<h1>This sign-in request cannot continue</h1>
<p>${escapeHtml(description)}</p>
<p><small>Error: <code>${escapeHtml(error)}</code></small></p>
<p>Go back to the application you came from and try again, or contact its developer.</p>`;
  return html(status, layout('Request refused', body), { 'content-security-policy': PAGE_CSP, ...NO_CACHE });
}

/** What the application will receive: per scope for OpenID Connect (OIDC Core §5.4), else Keyrock's set. */
function released(view: Consent): string {
  if (!view.claims)
    return 'will receive your name, email, and the roles you and your organizations hold in it.</p>';
  const items = view.claims.map((c) => `<li>${escapeHtml(c)}</li>`).join('\n');
  return `will receive:</p>\n<ul class="claims">\n${items}\n</ul>`;
}

function consentPage(view: Consent): HttpResult {
  const appName = view.application?.name ?? view.fallbackName;
  const appUrl = view.application?.url ?? view.redirectUri;
  const hidden = [...view.params, ['csrf_token', view.csrfToken]]
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k!)}" value="${escapeHtml(v!)}">`)
    .join('\n');
  const logoPath = logoUrl(view.application?.logoKey);
  const logo = logoPath
    ? `<img class="app-logo" src="${escapeHtml(logoPath)}" alt="" width="96" height="96">`
    : '';
  const body = `${logo}
<h1>Allow ${escapeHtml(appName)} to use your account?</h1>
<p>Signed in as <strong>${escapeHtml(view.userName)}</strong>.</p>
<p><strong>${escapeHtml(appName)}</strong> (<a href="${escapeHtml(appUrl)}" rel="noopener noreferrer">${escapeHtml(appUrl)}</a>)
${released(view)}
<form method="post" action="/oauth2/authorize">
${hidden}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`;
  // The form's answer redirects to the application's callback: its origin joins 'self'.
  return html(200, layout(`Allow ${appName}`, body), {
    'content-security-policy': formActionCsp(view.redirectUri),
    ...NO_CACHE,
  });
}

/** The authorization endpoint's answer (shared/oauth/authorize-endpoint.ts) as an HTTP response. */
export function authorizeResponse(outcome: AuthorizeOutcome): HttpResult {
  if (outcome.kind === 'redirect') return redirect(outcome.location);
  if (outcome.kind === 'sign-in') {
    // prompt=login / max_age (OIDC Core §3.1.2.1): the portal shows its form to a signed-in user too.
    const again = outcome.again ? 'prompt=login&' : '';
    return redirect(`/signin?${again}return=${encodeURIComponent(outcome.returnPath)}`);
  }
  return consentPage(outcome.consent);
}

/** CSP form-action also governs where a form's response redirects (browsers enforce it). */
function formActionCsp(target: string | undefined): string {
  let origin = '';
  try {
    origin = target ? new URL(target).origin : '';
  } catch {
    origin = '';
  }
  return PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${origin}`.trim());
}

/**
 * /oauth2/logout's answer (OpenID Connect RP-Initiated Logout 1.0, shared/oidc/logout.ts): the
 * registered post-logout redirect or the "You are signed out" page, both clearing the cookie;
 * or the confirmation form when the request does not prove the relying party sent it (§6).
 */
export function logoutResponse(outcome: LogoutOutcome): HttpResult {
  if (outcome.kind === 'signed-out') {
    const cookies = [clearedSessionCookie()];
    if (outcome.redirect) return redirect(outcome.redirect, {}, cookies);
    const body = `<h1>You are signed out</h1>
<p>Your Gatehouse session has ended. You can close this window.</p>
<p><a href="/signin">Sign in again</a></p>`;
    return {
      ...html(200, layout('Signed out', body), { 'content-security-policy': PAGE_CSP, ...NO_CACHE }),
      cookies,
    };
  }
  const hidden = [...outcome.params, ['csrf_token', outcome.csrfToken]]
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k!)}" value="${escapeHtml(v!)}">`)
    .join('\n');
  const asking = outcome.clientName
    ? `<strong>${escapeHtml(outcome.clientName)}</strong> asks to sign you out of Gatehouse.`
    : 'A request asks to sign you out of Gatehouse.';
  const body = `<h1>Sign out of Gatehouse?</h1>
<p>${asking}</p>
<form method="post" action="/oauth2/logout">
${hidden}
<button type="submit">Sign out</button>
<a href="/">Stay signed in</a>
</form>`;
  return html(200, layout('Sign out?', body), {
    'content-security-policy': formActionCsp(outcome.redirect),
    ...NO_CACHE,
  });
}
