import { useState } from 'preact/hooks';
import { type AppDetail, api } from '../api.js';
import { ConfirmButton, CopyButton, FormError, html, Loading, useForm, useLoad } from '../ui.js';

/**
 * The application page's FIWARE sections: the PEP proxy's credentials, the IoT agents' and the
 * trusted applications, as Keyrock's /v1 manages them. Who sees what follows the API's rules:
 * Providers see and change all three; Purchasers see the trusted applications only.
 */
interface Agents {
  pepProxy: { id: string } | null;
  iotAgents: { id: string }[];
}

interface Trusted {
  trustedApplications: { clientId: string; name: string | null }[];
}

interface Secret {
  what: string;
  id: string;
  password: string;
}

export function AppAgents({ detail }: { detail: AppDetail }) {
  const appId = detail.application.id;
  return html`${detail.can.manage && html`<${AgentSections} appId=${appId} />`}
    ${detail.can.authorize && html`<${TrustedApplications} appId=${appId} manage=${detail.can.manage} />`}`;
}

/** Credentials just made: shown this once, with copy buttons; only their hash is kept. */
function OnceSecret({ secret, onDone }: { secret: Secret; onDone: () => void }) {
  return html`<div class="credentials" role="region" aria-label=${`New ${secret.what} credentials`}>
    <dl>
      <dt>ID</dt>
      <dd><code class="secret">${secret.id}</code> <${CopyButton} value=${secret.id} label=${`Copy ${secret.what} ID`} /></dd>
      <dt>Password</dt>
      <dd><code class="secret">${secret.password}</code> <${CopyButton} value=${secret.password} label=${`Copy ${secret.what} password`} /></dd>
    </dl>
    <p class="warning">This password won’t be shown again. Copy it now; if it is lost, reset it.</p>
    <div class="actions">
      <button type="button" class="secondary" onClick=${onDone}>I have copied it</button>
    </div>
  </div>`;
}

function AgentSections({ appId }: { appId: number }) {
  const { data, error, reload } = useLoad(
    () => api<Agents>('GET', `/api/applications/${appId}/agents`),
    [appId],
  );
  const [secret, setSecret] = useState<Secret | undefined>(undefined);
  const [busy, setBusy] = useState('');
  const [failure, setFailure] = useState({ what: '', message: '' });
  const base = `/api/applications/${appId}`;
  /** Runs a create and shows its credentials; the list reloads behind them. */
  const create = async (what: string, path: string) => {
    setBusy(what);
    setFailure({ what: '', message: '' });
    try {
      const made = await api<{ id: string; password: string }>('POST', path);
      setSecret({ what, ...made });
      reload();
    } catch (e) {
      setFailure({ what, message: e instanceof Error ? e.message : 'Something went wrong.' });
    } finally {
      setBusy('');
    }
  };
  const shown = (what: string) =>
    secret?.what === what && html`<${OnceSecret} secret=${secret} onDone=${() => setSecret(undefined)} />`;
  if (!data) {
    return html`<section class="panel"><${FormError} error=${error} />${!error && html`<${Loading} what="PEP proxy and IoT agents" />`}</section>`;
  }
  const pep = data.pepProxy;
  return html`<section class="panel" aria-labelledby="pep-title">
      <h2 id="pep-title">PEP proxy</h2>
      <p class="hint">A PEP proxy (such as FIWARE’s Wilma) signs in with these credentials and asks Gatehouse whether each request to the service it guards may pass. An application has at most one.</p>
      ${
        pep
          ? // The credentials just shown name the id already.
            secret?.what !== 'PEP proxy' &&
            html`<dl><dt>ID</dt><dd><code>${pep.id}</code> <${CopyButton} value=${pep.id} label="Copy PEP proxy ID" /></dd></dl>`
          : html`<p class="empty">No PEP proxy yet.</p>`
      }
      ${shown('PEP proxy')}
      <${FormError} error=${failure.what === 'PEP proxy' ? failure.message : ''} />
      <div class="actions">
        ${
          pep
            ? html`<${ConfirmButton}
                label="Reset PEP proxy password"
                question="Reset the PEP proxy’s password? The current one stops working at once."
                confirmLabel="Reset password"
                busyLabel="Resetting…"
                onConfirm=${async () => {
                  const { password } = await api<{ password: string }>('POST', `${base}/pep-proxy/password`);
                  setSecret({ what: 'PEP proxy', id: pep.id, password });
                }}
              />
              <${ConfirmButton}
                label="Delete PEP proxy"
                question="Delete the PEP proxy? It can no longer sign in, so the service it guards refuses every request."
                confirmLabel="Delete for good"
                busyLabel="Deleting…"
                onConfirm=${async () => {
                  await api('DELETE', `${base}/pep-proxy`);
                  setSecret(undefined);
                  reload();
                }}
              />`
            : html`<button type="button" disabled=${busy !== ''} onClick=${() => create('PEP proxy', `${base}/pep-proxy`)}>
                ${busy === 'PEP proxy' ? 'Creating…' : 'Create PEP proxy'}
              </button>`
        }
      </div>
    </section>
    <section class="panel" aria-labelledby="iot-title">
      <h2 id="iot-title">IoT agents</h2>
      <p class="hint">Devices sign in as an IoT agent with its ID as the username and its password (the OAuth password grant).</p>
      ${
        data.iotAgents.length === 0
          ? html`<p class="empty">No IoT agents yet.</p>`
          : html`<ul class="rows">
            ${data.iotAgents.map(
              (agent) => html`<li key=${agent.id}>
                <span><code>${agent.id}</code></span>
                <span class="row-actions">
                  <${ConfirmButton}
                    label="Reset password"
                    question=${`Reset the password of ${agent.id}? The current one stops working at once.`}
                    confirmLabel="Reset password"
                    busyLabel="Resetting…"
                    onConfirm=${async () => {
                      const made = await api<{ id: string; password: string }>(
                        'POST',
                        `${base}/iot-agents/${encodeURIComponent(agent.id)}/password`,
                      );
                      setSecret({ what: 'IoT agent', ...made });
                    }}
                  />
                  <${ConfirmButton}
                    label="Delete"
                    question=${`Delete the IoT agent ${agent.id}? It can no longer sign in.`}
                    confirmLabel="Delete for good"
                    busyLabel="Deleting…"
                    onConfirm=${async () => {
                      await api('DELETE', `${base}/iot-agents/${encodeURIComponent(agent.id)}`);
                      if (secret?.id === agent.id) setSecret(undefined);
                      reload();
                    }}
                  />
                </span>
              </li>`,
            )}
          </ul>`
      }
      ${shown('IoT agent')}
      <${FormError} error=${failure.what === 'IoT agent' ? failure.message : ''} />
      <div class="actions">
        <button type="button" disabled=${busy !== ''} onClick=${() => create('IoT agent', `${base}/iot-agents`)}>
          ${busy === 'IoT agent' ? 'Adding…' : 'Add IoT agent'}
        </button>
      </div>
    </section>`;
}

function TrustedApplications({ appId, manage }: { appId: number; manage: boolean }) {
  const base = `/api/applications/${appId}/trusted-applications`;
  const { data, error, reload } = useLoad(() => api<Trusted>('GET', base), [appId]);
  const form = useForm({ clientId: '' });
  const add = form.submit(async (v) => {
    await api('POST', base, { clientId: v.clientId.trim() });
    form.reset();
    reload();
  });
  const list = data?.trustedApplications ?? [];
  return html`<section class="panel" aria-labelledby="trusted-title">
    <h2 id="trusted-title">Trusted applications</h2>
    <p class="hint">Tokens issued to these applications are accepted for this one too when a PEP proxy asks (GET /user?app_id=…), with this application’s roles.</p>
    <${FormError} error=${error} />
    ${
      !data && !error
        ? html`<${Loading} what="trusted applications" />`
        : list.length === 0
          ? html`<p class="empty">No trusted applications.</p>`
          : html`<ul class="rows">
            ${list.map(
              (t) => html`<li key=${t.clientId}>
                <span><strong>${t.name ?? 'A deleted application'}</strong> <code>${t.clientId}</code></span>
                ${
                  manage &&
                  html`<span class="row-actions"><${ConfirmButton}
                    label="Remove"
                    question=${`Stop trusting ${t.name ?? t.clientId}? Its tokens are no longer accepted for this application.`}
                    confirmLabel="Remove"
                    busyLabel="Removing…"
                    onConfirm=${async () => {
                      await api('DELETE', `${base}/${encodeURIComponent(t.clientId)}`);
                      reload();
                    }}
                  /></span>`
                }
              </li>`,
            )}
          </ul>`
    }
    ${
      manage
        ? html`<form onSubmit=${add} class="inline-form" novalidate>
          <h3>Trust an application</h3>
          <${FormError} error=${form.errors._form} />
          ${form.field('clientId', 'Client ID', {
            required: true,
            hint: 'The client ID shown on the other application’s page.',
          })}
          <button type="submit" disabled=${form.busy}>${form.busy ? 'Adding…' : 'Trust application'}</button>
        </form>`
        : html`<p class="muted">Only Providers of this application can change this list.</p>`
    }
  </section>`;
}
