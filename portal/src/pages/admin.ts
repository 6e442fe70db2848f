import { useState } from 'preact/hooks';
import { api, type SessionInfo } from '../api.js';
import { Field, FormError, html, Loading, useLoad } from '../ui.js';

/** An entry of GET /api/admin/users. */
interface DirectoryUser {
  id: number;
  email: string;
  displayName: string;
  nickName: string;
  admin: boolean;
  enabled: boolean;
  createdAt: string;
}

interface DirectoryPage {
  users: DirectoryUser[];
  next?: string;
  totals: { users: number; organizations: number; resources: number };
}

const BY = [
  { value: 'email', label: 'Email' },
  { value: 'name', label: 'Name' },
];

const PAGE = 20;

function UserRow({
  user,
  self,
  onChanged,
}: {
  user: DirectoryUser;
  self: boolean;
  onChanged: (u: DirectoryUser) => void;
}) {
  const [busy, setBusy] = useState('');
  const [error, setError] = useState('');
  const change = (label: string, body: { enabled?: boolean; admin?: boolean }) => async () => {
    setBusy(label);
    setError('');
    try {
      onChanged((await api<{ user: DirectoryUser }>('PATCH', `/api/admin/users/${user.id}`, body)).user);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Something went wrong.');
    } finally {
      setBusy('');
    }
  };
  return html`<li data-testid=${`user-${user.id}`}>
    <span>
      <strong>${user.displayName}</strong> <span class="muted">${user.email} · id ${user.id}</span>
      ${user.admin && html` <span class="badge">Administrator</span>`}
      ${!user.enabled && html` <span class="badge warning-badge">Disabled</span>`}
      <${FormError} error=${error} />
    </span>
    ${
      self
        ? html`<span class="muted">you</span>`
        : html`<span class="row-actions">
            <button
              type="button"
              class=${user.enabled ? 'danger small' : 'secondary small'}
              disabled=${!!busy}
              onClick=${change('enabled', { enabled: !user.enabled })}
            >
              ${busy === 'enabled' ? 'Saving…' : user.enabled ? `Disable ${user.displayName}` : `Enable ${user.displayName}`}
            </button>
            <button
              type="button"
              class="secondary small"
              disabled=${!!busy}
              onClick=${change('admin', { admin: !user.admin })}
            >
              ${busy === 'admin' ? 'Saving…' : user.admin ? 'Remove administrator' : 'Make administrator'}
            </button>
          </span>`
    }
  </li>`;
}

/** /admin: the user directory for administrators, with the SCIM totals. */
export function AdminPage({ session }: { session: SessionInfo }) {
  const [query, setQuery] = useState({ q: '', by: 'email' });
  const [draft, setDraft] = useState({ q: '', by: 'email' });
  // The cursors of the pages before this one, so "Previous" goes back without asking the server.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const { data, error, setData } = useLoad(() => {
    const params = new URLSearchParams({ limit: String(PAGE), by: query.by });
    if (query.q) params.set('q', query.q);
    if (cursor) params.set('cursor', cursor);
    return api<DirectoryPage>('GET', `/api/admin/users?${params}`);
  }, [query.q, query.by, cursor]);
  const search = (e: Event) => {
    e.preventDefault();
    setCursors([]);
    setQuery({ ...draft, q: draft.q.trim() });
  };
  const replace = (u: DirectoryUser) =>
    data && setData({ ...data, users: data.users.map((x) => (x.id === u.id ? u : x)) });
  return html`<section>
    <h1 tabindex="-1">Administration</h1>
    ${
      data &&
      html`<dl class="totals" aria-label="SCIM totals">
        <dt>Users</dt><dd data-testid="total-users">${data.totals.users}</dd>
        <dt>Organizations</dt><dd data-testid="total-organizations">${data.totals.organizations}</dd>
        <dt>Resources</dt><dd>${data.totals.resources}</dd>
      </dl>`
    }
    <form onSubmit=${search} class="panel inline-form" role="search" novalidate>
      <h2>Users</h2>
      <${Field}
        id="admin-q"
        label="Starts with"
        value=${draft.q}
        onInput=${(q: string) => setDraft((d) => ({ ...d, q }))}
        hint="The beginning of an email address or of a display name; empty lists everyone."
      />
      <${Field}
        id="admin-by"
        label="Search by"
        value=${draft.by}
        options=${BY}
        onInput=${(by: string) => setDraft((d) => ({ ...d, by }))}
      />
      <button type="submit">Search</button>
    </form>
    <${FormError} error=${error} />
    ${
      !data
        ? !error && html`<${Loading} what="users" />`
        : data.users.length === 0
          ? html`<p class="empty">No user ${query.q ? `whose ${query.by === 'name' ? 'name' : 'email'} starts with “${query.q}”` : 'yet'}.</p>`
          : html`<ul class="rows" data-testid="users">
              ${data.users.map(
                (u) =>
                  html`<${UserRow} key=${u.id} user=${u} self=${u.id === session.user?.id} onChanged=${replace} />`,
              )}
            </ul>`
    }
    <div class="actions">
      ${
        cursors.length > 0 &&
        html`<button type="button" class="secondary" onClick=${() => setCursors((c) => c.slice(0, -1))}>
          Previous page
        </button>`
      }
      ${
        data?.next &&
        html`<button type="button" class="secondary" onClick=${() => setCursors((c) => [...c, data.next!])}>
          Next page
        </button>`
      }
    </div>
  </section>`;
}
