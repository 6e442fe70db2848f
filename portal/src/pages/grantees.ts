import { useState } from 'preact/hooks';
import { type AppDetail, api, type Grantee, type SessionInfo } from '../api.js';
import { ConfirmButton, Field, FormError, html, useForm } from '../ui.js';

/** Users and organizations holding roles in the application (Provider and Purchaser). */
export function Grantees({
  detail,
  session,
  reload,
}: {
  detail: AppDetail;
  session: SessionInfo;
  reload: () => void;
}) {
  const appId = detail.application.id;
  const roles = detail.roles ?? [];
  const roleOptions = roles.map((r) => ({ value: String(r.id), label: r.name }));
  const purchaser = roles.find((r) => r.builtIn === 'purchaser') ?? roles[0];
  const form = useForm({ kind: 'user', user: '', organizationId: '', roleId: String(purchaser?.id ?? '') });
  const add = form.submit(async (v) => {
    await api(
      'POST',
      `/api/applications/${appId}/authorizations`,
      v.kind === 'user'
        ? { user: v.user, roleId: Number(v.roleId) }
        : { organizationId: v.organizationId, roleId: Number(v.roleId) },
    );
    form.setValues((s) => ({ ...s, user: '', organizationId: '' }));
    reload();
  });
  const mine = (session.organizations ?? []).map((o) => `${o.name} (${o.id})`).join(', ');
  return html`<section class="panel" aria-labelledby="grantees-title">
    <h2 id="grantees-title">Authorized users and organizations</h2>
    ${
      (detail.grantees ?? []).length === 0
        ? html`<p class="hint">Nobody is authorized yet.</p>`
        : html`<ul class="rows">
          ${(detail.grantees ?? []).map(
            (g) =>
              html`<${GranteeRow} key=${`${g.kind}-${g.id}`} appId=${appId} grantee=${g} roleOptions=${roleOptions} reload=${reload} />`,
          )}
        </ul>`
    }
    <form onSubmit=${add} class="inline-form" novalidate>
      <h3>Authorize someone</h3>
      <${FormError} error=${form.errors._form} />
      ${form.field('kind', 'Who', {
        options: [
          { value: 'user', label: 'A user' },
          { value: 'org', label: 'An organization' },
        ],
      })}
      ${
        form.values.kind === 'user'
          ? form.field('user', 'Email or nickName', { required: true })
          : form.field('organizationId', 'Organization id', {
              hint: mine ? `Your organizations: ${mine}` : 'The number shown on the organization page.',
              required: true,
            })
      }
      ${form.field('roleId', 'Role', { options: roleOptions })}
      <button type="submit" disabled=${form.busy}>${form.busy ? 'Authorizing…' : 'Authorize'}</button>
    </form>
  </section>`;
}

function GranteeRow({
  appId,
  grantee,
  roleOptions,
  reload,
}: {
  appId: number;
  grantee: Grantee;
  roleOptions: { value: string; label: string }[];
  reload: () => void;
}) {
  const [roleId, setRoleId] = useState(String(grantee.roleIds[0] ?? ''));
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const path = `/api/applications/${appId}/authorizations/${grantee.kind}/${grantee.id}`;
  const change = async (value: string) => {
    const before = roleId;
    setRoleId(value);
    setStatus('Saving…');
    setError('');
    try {
      await api('PUT', path, { roleId: Number(value) });
      setStatus('Saved');
    } catch (e) {
      setRoleId(before);
      setStatus('');
      setError(e instanceof Error ? e.message : 'Saving failed.');
    }
  };
  const extra =
    grantee.roleIds.length > 1 ? ` (holds ${grantee.roleIds.length} roles; choosing one replaces them)` : '';
  const roleName = (id: string) => roleOptions.find((o) => o.value === id)?.label ?? `Role ${id}`;
  const only = Object.entries(grantee.only)
    .map(([id, holder]) => `${roleName(id)}: its ${holder}s only`)
    .join('; ');
  return html`<li>
    <span
      ><strong>${grantee.label}</strong> ${grantee.kind === 'org' ? `(organization${only ? `; ${only}` : ''})` : ''}</span
    >
    <span class="row-actions">
      <${Field}
        id=${`role-${grantee.kind}-${grantee.id}`}
        label=${`Role${extra}`}
        value=${roleId}
        options=${roleOptions}
        error=${error}
        onInput=${change}
      />
      <span class="status" role="status">${status}</span>
      <${ConfirmButton}
        label="Remove"
        question=${`Remove every role of ${grantee.label}?`}
        confirmLabel="Remove"
        onConfirm=${async () => {
          await api('DELETE', path);
          reload();
        }}
      />
    </span>
  </li>`;
}
