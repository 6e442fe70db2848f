import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { FormError, html, Loading, useForm, useLoad } from '../ui.js';
import { renderTwoFactor } from './two-factor.js';

/** GET /api/account. */
interface Account {
  user: {
    id: number;
    email: string;
    nickName: string;
    displayName: string;
    admin: boolean;
    createdAt: string;
    passwordChangedAt: string;
  };
  sessions: { id: string; current: boolean; signedInAt?: string; lastActiveAt: string }[];
}

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : 'unknown');

function NameForm({ account, onSaved }: { account: Account; onSaved: () => Promise<void> }) {
  const form = useForm({ displayName: account.user.displayName });
  const [saved, setSaved] = useState('');
  const save = form.submit(async (v) => {
    setSaved('');
    await api('PATCH', '/api/account', v);
    await onSaved();
    setSaved('Your name is saved.');
  });
  return html`<form onSubmit=${save} class="panel" novalidate aria-labelledby="name-heading">
    <h2 id="name-heading">Display name</h2>
    <${FormError} error=${form.errors._form} />
    ${saved && html`<p class="notice" role="status">${saved}</p>`}
    ${form.field('displayName', 'Display name', { autocomplete: 'name', required: true })}
    <button type="submit" disabled=${form.busy}>${form.busy ? 'Saving…' : 'Save name'}</button>
  </form>`;
}

function EmailForm({ account }: { account: Account }) {
  const form = useForm({ email: '', password: '' });
  const [pending, setPending] = useState('');
  const send = form.submit(async (v) => {
    const answer = await api<{ pendingEmail: string }>('POST', '/api/account/email', v);
    setPending(answer.pendingEmail);
    form.reset();
  });
  return html`<form onSubmit=${send} class="panel" novalidate aria-labelledby="email-heading">
    <h2 id="email-heading">Email address</h2>
    <p>Your address is <strong data-testid="current-email">${account.user.email}</strong>.</p>
    ${
      pending &&
      html`<p class="notice" role="status">
        We emailed a link to <strong>${pending}</strong>. Your address stays ${account.user.email} until
        you follow it (within 24 hours).
      </p>`
    }
    <${FormError} error=${form.errors._form} />
    ${form.field('email', 'New email address', { type: 'email', autocomplete: 'email', required: true })}
    ${form.field('password', 'Current password', { type: 'password', autocomplete: 'current-password', required: true })}
    <button type="submit" disabled=${form.busy}>${form.busy ? 'Sending…' : 'Send a confirmation link'}</button>
  </form>`;
}

function PasswordForm({ reload }: { reload: () => void }) {
  const form = useForm({ password: '', newPassword: '' });
  const [signOutOthers, setSignOutOthers] = useState(true);
  const [done, setDone] = useState('');
  const change = form.submit(async (v) => {
    setDone('');
    const answer = await api<{ sessionsEnded: number }>('PUT', '/api/account/password', {
      ...v,
      signOutOthers,
    });
    form.reset();
    setDone(
      answer.sessionsEnded > 0
        ? `Your password is changed; ${answer.sessionsEnded} other ${answer.sessionsEnded === 1 ? 'session was' : 'sessions were'} signed out.`
        : 'Your password is changed.',
    );
    reload();
  });
  return html`<form onSubmit=${change} class="panel" novalidate aria-labelledby="password-heading">
    <h2 id="password-heading">Password</h2>
    <${FormError} error=${form.errors._form} />
    ${done && html`<p class="notice" role="status">${done}</p>`}
    ${form.field('password', 'Current password', { type: 'password', autocomplete: 'current-password', required: true })}
    ${form.field('newPassword', 'New password', {
      type: 'password',
      autocomplete: 'new-password',
      hint: 'At least 8 characters.',
      required: true,
    })}
    <div class="check">
      <input
        type="checkbox"
        id="sign-out-others"
        checked=${signOutOthers}
        onChange=${(e: Event) => setSignOutOthers((e.currentTarget as HTMLInputElement).checked)}
      />
      <label for="sign-out-others">Sign out my other sessions and applications' refresh tokens</label>
    </div>
    <button type="submit" disabled=${form.busy}>${form.busy ? 'Changing…' : 'Change password'}</button>
  </form>`;
}

function Sessions({ account, reload }: { account: Account; reload: () => void }) {
  const [busy, setBusy] = useState('');
  const [error, setError] = useState('');
  const run = (label: string, fn: () => Promise<unknown>) => async () => {
    setBusy(label);
    setError('');
    try {
      await fn();
      reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Something went wrong.');
    } finally {
      setBusy('');
    }
  };
  const others = account.sessions.filter((s) => !s.current);
  return html`<section class="panel" aria-labelledby="sessions-heading">
    <h2 id="sessions-heading">Where you are signed in</h2>
    <${FormError} error=${error} />
    <ul class="rows" data-testid="sessions">
      ${account.sessions.map(
        (s) => html`<li>
          <span>
            <strong>${s.current ? 'This browser' : 'Another session'}</strong>
            <span class="muted"> · signed in ${when(s.signedInAt)} · last active ${when(s.lastActiveAt)}</span>
          </span>
          ${
            s.current
              ? html`<span class="muted">current</span>`
              : html`<button
                  type="button"
                  class="secondary small"
                  disabled=${!!busy}
                  onClick=${run(s.id, () => api('DELETE', `/api/account/sessions/${s.id}`))}
                >
                  ${busy === s.id ? 'Signing out…' : 'Sign out'}
                </button>`
          }
        </li>`,
      )}
    </ul>
    ${
      others.length > 0 &&
      html`<button
        type="button"
        class="secondary"
        disabled=${!!busy}
        onClick=${run('all', () => api('DELETE', '/api/account/sessions'))}
      >
        ${busy === 'all' ? 'Signing out…' : 'Sign out all other sessions'}
      </button>`
    }
  </section>`;
}

/** The two-factor section is its own module (pages/two-factor.ts); it mounts into this element. */
function TwoFactorMount() {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => (container.current ? renderTwoFactor(container.current) : undefined), []);
  return html`<div class="panel" ref=${container} data-testid="two-factor"></div>`;
}

function DeleteAccount({ onDeleted }: { onDeleted: () => void }) {
  const form = useForm({ password: '' });
  const [asking, setAsking] = useState(false);
  const remove = form.submit(async (v) => {
    await api('DELETE', '/api/account', v);
    onDeleted();
  });
  return html`<section class="panel" aria-labelledby="delete-heading">
    <h2 id="delete-heading">Delete your account</h2>
    <p>
      Your account, your memberships and the roles you hold in applications go for good, and you are
      signed out everywhere. If you are an organization's last owner, give it another owner first.
    </p>
    ${
      asking
        ? html`<form onSubmit=${remove} class="confirm" novalidate>
            <p>This cannot be undone. Enter your password to confirm.</p>
            <${FormError} error=${form.errors._form} />
            ${form.field('password', 'Password', { type: 'password', autocomplete: 'current-password', required: true })}
            <button type="submit" class="danger" disabled=${form.busy}>
              ${form.busy ? 'Deleting…' : 'Delete my account'}
            </button>
            <button type="button" class="secondary" disabled=${form.busy} onClick=${() => setAsking(false)}>
              Cancel
            </button>
          </form>`
        : html`<button type="button" class="danger" onClick=${() => setAsking(true)}>Delete account…</button>`
    }
  </section>`;
}

/** /account: one's own settings. */
export function AccountPage({ refresh, onDeleted }: { refresh: () => Promise<void>; onDeleted: () => void }) {
  const { data, error, reload } = useLoad(() => api<Account>('GET', '/api/account'), []);
  if (error)
    return html`<section><h1 tabindex="-1">Account settings</h1><${FormError} error=${error} /></section>`;
  if (!data)
    return html`<section><h1 tabindex="-1">Account settings</h1><${Loading} what="your account" /></section>`;
  return html`<section>
    <h1 tabindex="-1">Account settings</h1>
    <p class="muted">
      ${data.user.email} · nickName ${data.user.nickName} · member since ${new Date(data.user.createdAt).toLocaleDateString()}
    </p>
    <${NameForm} account=${data} onSaved=${async () => {
      await refresh();
      reload();
    }} />
    <${EmailForm} account=${data} />
    <${PasswordForm} reload=${reload} />
    <${TwoFactorMount} />
    <${Sessions} account=${data} reload=${reload} />
    <${DeleteAccount} onDeleted=${onDeleted} />
  </section>`;
}

/** /confirm-email#token=…: follows an address-change link, signed in or not. */
export function ConfirmEmailChange() {
  const [state, setState] = useState<{ email?: string; error?: string }>({});
  useEffect(() => {
    const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
    api<{ email: string }>('POST', '/api/account/email/confirm', { token })
      .then(({ email }) => setState({ email }))
      .catch((e: unknown) =>
        setState({ error: e instanceof Error ? e.message : 'The link could not be checked.' }),
      );
  }, []);
  return html`<section class="narrow">
    <h1 tabindex="-1">Confirm your new email address</h1>
    ${
      state.error
        ? html`<${FormError} error=${state.error} />
            <p><a href="/account">Go to your account settings</a> to ask for a new link.</p>`
        : state.email
          ? html`<p class="notice" role="status">Your email address is now <strong>${state.email}</strong>.</p>
              <p><a href="/account">Go to your account settings</a></p>`
          : html`<p role="status">Checking your link…</p>`
    }
  </section>`;
}
