import { useState } from 'preact/hooks';
import { api, type SessionInfo } from '../api.js';
import { ConfirmButton, Field, FormError, html, Loading, useForm, useLoad } from '../ui.js';

const ROLES = [
  { value: 'member', label: 'Member' },
  { value: 'owner', label: 'Owner' },
];

export function OrganizationList({
  session,
  refresh,
}: {
  session: SessionInfo;
  refresh: () => Promise<void>;
}) {
  const form = useForm({ name: '', description: '' });
  const create = form.submit(async (v) => {
    await api('POST', '/api/organizations', v);
    form.reset();
    await refresh();
  });
  const orgs = session.organizations ?? [];
  return html`<section>
    <h1 tabindex="-1">Organizations</h1>
    ${
      orgs.length === 0
        ? html`<p class="empty">You do not belong to any organization yet.</p>`
        : html`<ul class="rows">
          ${orgs.map(
            (o) => html`<li>
              <span><a href=${`/organizations/${o.id}`}><strong>${o.name}</strong></a></span>
              <span class="muted">${o.role === 'owner' ? 'Owner' : 'Member'} · id ${o.id}</span>
            </li>`,
          )}
        </ul>`
    }
    <form onSubmit=${create} class="panel" novalidate>
      <h2>Create an organization</h2>
      <p class="hint">You will be its owner.</p>
      <${FormError} error=${form.errors._form} />
      ${form.field('name', 'Name', { required: true })}
      ${form.field('description', 'Description', { multiline: true })}
      <button type="submit" disabled=${form.busy}>${form.busy ? 'Creating…' : 'Create organization'}</button>
    </form>
  </section>`;
}

interface Member {
  userId: number;
  role: 'owner' | 'member';
  displayName: string;
  email: string;
  nickName: string;
}

interface OrgDetail {
  organization: { id: number; name: string; description: string };
  myRole: 'owner' | 'member';
  can: { manageMembers: boolean };
  members: Member[];
}

export function OrganizationPage({
  id,
  session,
  actAs,
}: {
  id: number;
  session: SessionInfo;
  actAs: (orgId: number | null) => Promise<void>;
}) {
  const { data, error, reload } = useLoad(() => api<OrgDetail>('GET', `/api/organizations/${id}`), [id]);
  const form = useForm({ user: '', role: 'member' });
  const add = form.submit(async (v) => {
    await api('POST', `/api/organizations/${id}/members`, v);
    form.reset();
    reload();
  });
  if (error)
    return html`<section><h1 tabindex="-1">Organization</h1><${FormError} error=${error} /></section>`;
  if (!data) return html`<${Loading} what="the organization" />`;
  const acting = session.acting?.kind === 'org' && session.acting.id === id;
  return html`<section>
    <div class="title-row">
      <h1 tabindex="-1">${data.organization.name}</h1>
      ${
        acting
          ? html`<button type="button" class="secondary" onClick=${() => actAs(null)}>Stop acting as ${data.organization.name}</button>`
          : html`<button type="button" onClick=${() => actAs(id)}>Act as ${data.organization.name}</button>`
      }
    </div>
    <p>${data.organization.description}</p>
    <p class="muted">Organization id ${id} · your role: ${data.myRole}</p>
    <section class="panel" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <ul class="rows">
        ${data.members.map(
          (m) =>
            html`<${MemberRow} key=${m.userId} orgId=${id} member=${m} manage=${data.can.manageMembers} reload=${reload} />`,
        )}
      </ul>
      ${
        data.can.manageMembers &&
        html`<form onSubmit=${add} class="inline-form" novalidate>
          <h3>Add a member</h3>
          <${FormError} error=${form.errors._form} />
          ${form.field('user', 'Email or nickName', { required: true })}
          ${form.field('role', 'Role', { options: ROLES })}
          <button type="submit" disabled=${form.busy}>${form.busy ? 'Adding…' : 'Add member'}</button>
        </form>`
      }
    </section>
  </section>`;
}

function MemberRow({
  orgId,
  member,
  manage,
  reload,
}: {
  orgId: number;
  member: Member;
  manage: boolean;
  reload: () => void;
}) {
  const [role, setRole] = useState<string>(member.role);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const path = `/api/organizations/${orgId}/members/${member.userId}`;
  const change = async (value: string) => {
    const before = role;
    setRole(value);
    setStatus('Saving…');
    setError('');
    try {
      await api('PUT', path, { role: value });
      setStatus('Saved');
    } catch (e) {
      setRole(before);
      setStatus('');
      setError(e instanceof Error ? e.message : 'Saving failed.');
    }
  };
  return html`<li>
    <span><strong>${member.displayName}</strong> <span class="muted">${member.email}</span></span>
    ${
      manage
        ? html`<span class="row-actions">
          <${Field} id=${`member-role-${member.userId}`} label="Role" value=${role} options=${ROLES} error=${error} onInput=${change} />
          <span class="status" role="status">${status}</span>
          <${ConfirmButton}
            label="Remove"
            question=${`Remove ${member.displayName} from the organization?`}
            confirmLabel="Remove"
            onConfirm=${async () => {
              await api('DELETE', path);
              reload();
            }}
          />
        </span>`
        : html`<span class="muted">${member.role === 'owner' ? 'Owner' : 'Member'}</span>`
    }
  </li>`;
}
