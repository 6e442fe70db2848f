import { useState } from 'preact/hooks';
import { type AppDetail, api } from '../api.js';
import { ConfirmButton, FormError, html, useForm } from '../ui.js';

const VERBS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'].map((v) => ({ value: v, label: v }));

/** Roles, permissions and the switch of each permission per role (Provider only). */
export function RolesEditor({ detail, reload }: { detail: AppDetail; reload: () => void }) {
  const appId = detail.application.id;
  const roles = detail.roles ?? [];
  const permissions = detail.permissions ?? [];
  const [switches, setSwitches] = useState<Record<string, number[]>>(detail.switches ?? {});
  const [switchError, setSwitchError] = useState('');
  const [saving, setSaving] = useState('');
  const roleForm = useForm({ name: '' });
  const permForm = useForm({ name: '', description: '', verb: 'GET', path: '/' });

  const addRole = roleForm.submit(async (v) => {
    await api('POST', `/api/applications/${appId}/roles`, v);
    roleForm.reset();
    reload();
  });
  const addPermission = permForm.submit(async (v) => {
    await api('POST', `/api/applications/${appId}/permissions`, v);
    permForm.reset();
    reload();
  });
  const toggle = async (roleId: number, permissionId: number, on: boolean) => {
    const key = String(roleId);
    const before = switches;
    const list = new Set(switches[key] ?? []);
    if (on) list.add(permissionId);
    else list.delete(permissionId);
    setSwitches({ ...switches, [key]: [...list] });
    setSaving(`${roleId}:${permissionId}`);
    setSwitchError('');
    try {
      await api('PUT', `/api/applications/${appId}/roles/${roleId}/permissions/${permissionId}`, { on });
    } catch (e) {
      setSwitches(before);
      setSwitchError(e instanceof Error ? e.message : 'Saving failed.');
    } finally {
      setSaving('');
    }
  };

  return html`<section class="panel" aria-labelledby="roles-title">
    <h2 id="roles-title">Roles and permissions</h2>
    <div class="columns">
      <form onSubmit=${addRole} class="inline-form" novalidate>
        <h3>Add a role</h3>
        <${FormError} error=${roleForm.errors._form} />
        ${roleForm.field('name', 'Role name', { required: true })}
        <button type="submit" disabled=${roleForm.busy}>${roleForm.busy ? 'Adding role…' : 'Add role'}</button>
      </form>
      <form onSubmit=${addPermission} class="inline-form" novalidate>
        <h3>Add a permission</h3>
        <${FormError} error=${permForm.errors._form} />
        ${permForm.field('name', 'Permission name', { required: true })}
        ${permForm.field('description', 'Permission description')}
        ${permForm.field('verb', 'HTTP verb', { options: VERBS })}
        ${permForm.field('path', 'Resource path', { hint: 'For example /orders', required: true })}
        <button type="submit" disabled=${permForm.busy}>
          ${permForm.busy ? 'Adding permission…' : 'Add permission'}
        </button>
      </form>
    </div>

    <h3>Permissions</h3>
    ${
      permissions.length === 0
        ? html`<p class="hint">No permissions yet.</p>`
        : html`<ul class="rows">
          ${permissions.map(
            (p) => html`<li>
              <span><strong>${p.name}</strong> <code>${p.verb} ${p.path}</code> ${p.description}</span>
              <${ConfirmButton}
                label=${`Delete ${p.name}`}
                question=${`Delete the permission ${p.name}?`}
                confirmLabel="Delete permission"
                onConfirm=${async () => {
                  await api('DELETE', `/api/applications/${appId}/permissions/${p.id}`);
                  reload();
                }}
              />
            </li>`,
          )}
        </ul>`
    }

    <h3>Permissions of each role</h3>
    <${FormError} error=${switchError} />
    <div class="role-grid">
      ${roles.map(
        (r) => html`<fieldset class="role">
          <legend>${r.name}${r.builtIn ? ' (built in)' : ''}</legend>
          ${permissions.length === 0 && html`<p class="hint">Add a permission to switch it on here.</p>`}
          ${permissions.map((p) => {
            const id = `sw-${r.id}-${p.id}`;
            const on = (switches[String(r.id)] ?? []).includes(p.id);
            return html`<div class="check">
              <input
                type="checkbox"
                id=${id}
                checked=${on}
                disabled=${saving === `${r.id}:${p.id}`}
                onChange=${(e: Event) => toggle(r.id, p.id, (e.currentTarget as HTMLInputElement).checked)}
              />
              <label for=${id}>${p.name} <code>${p.verb} ${p.path}</code></label>
            </div>`;
          })}
          ${
            !r.builtIn &&
            html`<${ConfirmButton}
              label=${`Delete role ${r.name}`}
              question=${`Delete the role ${r.name}?`}
              confirmLabel="Delete role"
              onConfirm=${async () => {
                await api('DELETE', `/api/applications/${appId}/roles/${r.id}`);
                reload();
              }}
            />`
          }
        </fieldset>`,
      )}
    </div>
  </section>`;
}
