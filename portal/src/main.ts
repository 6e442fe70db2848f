import 'cropperjs/dist/cropper.css';
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type SessionInfo, setCsrfToken, whenSignedOut } from './api.js';
import { AccountPage, ConfirmEmailChange } from './pages/account.js';
import { ForgotPassword, ResetPassword, VerifyEmail } from './pages/account-links.js';
import { AdminPage } from './pages/admin.js';
import { ApplicationList, ApplicationPage, NewApplication } from './pages/applications.js';
import { SignIn, SignUp } from './pages/auth.js';
import { OrganizationList, OrganizationPage } from './pages/organizations.js';
import { safeReturn } from './return-path.js';
import { FormError, html, Loading, navigate, onLinkClick } from './ui.js';

const PUBLIC = new Set(['/signin', '/signup']);
/** Pages a mailed link opens: they work signed in or not, and never redirect. */
const ACCOUNT_LINKS: ReadonlyMap<string, () => unknown> = new Map([
  ['/verify-email', () => html`<${VerifyEmail} />`],
  ['/forgot-password', () => html`<${ForgotPassword} />`],
  ['/reset-password', () => html`<${ResetPassword} />`],
  ['/confirm-email', () => html`<${ConfirmEmailChange} />`],
]);

function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const on = () => setPath(location.pathname);
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  return path;
}

function Header({
  session,
  actAs,
  signOut,
}: {
  session: SessionInfo;
  actAs: (orgId: number | null) => Promise<void>;
  signOut: () => Promise<void>;
}) {
  const [busy, setBusy] = useState('');
  const [error, setError] = useState('');
  const user = session.user!;
  const acting = session.acting?.kind === 'org' ? session.acting : undefined;
  const run = (label: string, fn: () => Promise<void>) => async () => {
    setBusy(label);
    setError('');
    try {
      await fn();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Something went wrong.');
    } finally {
      setBusy('');
    }
  };
  return html`<header class="topbar">
    <div class="bar">
      <a class="brand" href="/">Gatehouse</a>
      <nav aria-label="Main">
        <a href="/">Applications</a>
        <a href="/organizations">Organizations</a>
        <a href="/account">Account</a>
        ${user.admin && html`<a href="/admin">Administration</a>`}
      </nav>
      <div class="who">
        <label for="acting-as">Acting as</label>
        <select
          id="acting-as"
          disabled=${!!busy}
          onChange=${(e: Event) => {
            const v = (e.currentTarget as HTMLSelectElement).value;
            run('switch', () => actAs(v ? Number(v) : null))();
          }}
        >
          <option value="" selected=${!acting}>${user.displayName} (personal)</option>
          ${(session.organizations ?? []).map(
            (o) =>
              html`<option value=${String(o.id)} selected=${acting?.id === o.id}>${o.name} (organization)</option>`,
          )}
        </select>
        <button type="button" class="secondary small" disabled=${!!busy} onClick=${run('out', signOut)}>
          ${busy === 'out' ? 'Signing out…' : 'Sign out'}
        </button>
      </div>
    </div>
    <p class=${`acting${acting ? ' org' : ''}`} role="status" data-testid="acting">
      ${
        acting
          ? html`Acting on behalf of <strong>${acting.name}</strong> (organization) as ${user.displayName}`
          : html`Signed in as <strong>${user.displayName}</strong> (${user.email})`
      }
      ${busy === 'switch' ? ' · switching…' : ''}
    </p>
    <${FormError} error=${error} />
  </header>`;
}

function App() {
  const path = usePath();
  const [session, setSession] = useState<SessionInfo | undefined>(undefined);
  const [loadError, setLoadError] = useState('');
  const main = useRef<HTMLElement>(null);

  const accept = (s: SessionInfo) => {
    if (s.csrfToken) setCsrfToken(s.csrfToken);
    setSession(s);
  };
  const refresh = async () => accept(await api<SessionInfo>('GET', '/api/session'));

  useEffect(() => {
    whenSignedOut(() => {
      setSession({ user: null });
      navigate(`/signin?return=${encodeURIComponent(location.pathname)}`, true);
    });
    refresh().catch((e: unknown) => setLoadError(e instanceof Error ? e.message : 'Loading failed.'));
  }, []);

  // Move focus to the new page's heading, as a full page load would, for screen reader users.
  useEffect(() => {
    const h1 = main.current?.querySelector('h1');
    if (h1 && document.activeElement !== h1) h1.focus({ preventScroll: true });
    document.title = h1?.textContent ? `${h1.textContent} · Gatehouse` : 'Gatehouse';
  }, [path, !!session]);

  useEffect(() => {
    if (!session) return;
    if (ACCOUNT_LINKS.has(path)) return;
    if (!session.user && !PUBLIC.has(path)) {
      navigate(`/signin?return=${encodeURIComponent(location.pathname + location.search)}`, true);
    } else if (session.user && PUBLIC.has(path) && !new URLSearchParams(location.search).has('prompt')) {
      // Not under `prompt=login` (from /oauth2/authorize, OIDC Core §3.1.2.1): the form shows again.
      const back = new URLSearchParams(location.search).get('return');
      if (back) location.replace(safeReturn(back));
      else navigate('/', true);
    }
  }, [session, path]);

  if (loadError) return html`<main id="content"><${FormError} error=${loadError} /></main>`;
  if (!session) return html`<main id="content"><${Loading} what="Gatehouse" /></main>`;

  const actAs = async (orgId: number | null) => {
    accept(await api<SessionInfo>('PUT', '/api/session/acting', { organizationId: orgId }));
    navigate('/');
  };
  const signedOutHere = () => {
    setCsrfToken('');
    setSession({ user: null });
    navigate('/signin', true);
  };
  const signOut = async () => {
    await api('DELETE', '/api/session');
    signedOutHere();
  };

  let page: unknown;
  const appMatch = /^\/applications\/(\d+)$/.exec(path);
  const orgMatch = /^\/organizations\/(\d+)$/.exec(path);
  const accountPage = ACCOUNT_LINKS.get(path);
  if (accountPage) page = accountPage();
  else if (path === '/signup') page = html`<${SignUp} />`;
  else if (path === '/signin' || !session.user) page = html`<${SignIn} onSignedIn=${accept} />`;
  else if (path === '/' || path === '/applications') page = html`<${ApplicationList} session=${session} />`;
  else if (path === '/applications/new') page = html`<${NewApplication} session=${session} />`;
  else if (appMatch)
    page = html`<${ApplicationPage} id=${Number(appMatch[1])} session=${session} key=${path} />`;
  else if (path === '/organizations')
    page = html`<${OrganizationList} session=${session} refresh=${refresh} />`;
  else if (path === '/account') page = html`<${AccountPage} refresh=${refresh} onDeleted=${signedOutHere} />`;
  else if (path === '/admin') page = html`<${AdminPage} session=${session} />`;
  else if (orgMatch)
    page = html`<${OrganizationPage} id=${Number(orgMatch[1])} session=${session} actAs=${actAs} key=${path} />`;
  else
    page = html`<section><h1 tabindex="-1">Page not found</h1><p><a href="/">Go to your applications</a></p></section>`;

  return html`<div class="shell" onClick=${onLinkClick}>
    <a class="skip" href="#content">Skip to content</a>
    ${
      session.user
        ? html`<${Header} session=${session} actAs=${actAs} signOut=${signOut} />`
        : html`<header class="topbar"><div class="bar"><a class="brand" href="/signin">Gatehouse</a></div></header>`
    }
    <main id="content" ref=${main}>${page}</main>
  </div>`;
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
document.documentElement.dataset.ready = 'true';
