import { useState } from 'preact/hooks';
import { type AppDetail, type AppSummary, type AppView, api, type SessionInfo } from '../api.js';
import {
  AppLogo,
  ConfirmButton,
  CopyButton,
  FormError,
  html,
  Loading,
  navigate,
  useForm,
  useLoad,
} from '../ui.js';
import { AppAgents } from './app-agents.js';
import { Grantees } from './grantees.js';
import { LogoEditor } from './logo.js';
import { RolesEditor } from './roles.js';

function actingName(session: SessionInfo): string {
  return session.acting?.kind === 'org' ? (session.acting.name ?? 'your organization') : 'you';
}

export function ApplicationList({ session }: { session: SessionInfo }) {
  const key = `${session.acting?.kind}:${session.acting?.id}`;
  const { data, error } = useLoad(
    () => api<{ applications: AppSummary[] }>('GET', '/api/applications'),
    [key],
  );
  const org = session.acting?.kind === 'org';
  return html`<section>
    <div class="title-row">
      <h1 tabindex="-1">${org ? `Applications of ${session.acting?.name}` : 'Your applications'}</h1>
      <a class="button" href="/applications/new">Register an application</a>
    </div>
    <${FormError} error=${error} />
    ${
      !data && !error
        ? html`<${Loading} what="applications" />`
        : data?.applications.length === 0
          ? html`<p class="empty">No applications yet. Register one to get a client id and secret.</p>`
          : html`<ul class="cards">
            ${data?.applications.map(
              (a) => html`<li class="card">
                <${AppLogo} url=${a.logoUrl} name=${a.name} />
                <div>
                  <h2><a href=${`/applications/${a.id}`}>${a.name}</a></h2>
                  <p class="muted">${a.url}</p>
                  <p>${a.description}</p>
                </div>
              </li>`,
            )}
          </ul>`
    }
  </section>`;
}

const EMPTY_APP = { name: '', description: '', url: 'https://', callbackUrl: 'https://' };

function ApplicationFields({ form }: { form: ReturnType<typeof useForm<typeof EMPTY_APP>> }) {
  return html`${form.field('name', 'Name', { required: true })}
    ${form.field('description', 'Description', { multiline: true, required: true })}
    ${form.field('url', 'URL', { type: 'url', hint: 'The application’s home page, http(s).', required: true })}
    ${form.field('callbackUrl', 'Callback URL', {
      type: 'url',
      hint: 'Where sign-in returns to (OAuth redirect URI), http(s), no #fragment.',
      required: true,
    })}`;
}

function Credentials({ app, secret }: { app: AppView; secret: string }) {
  return html`<section class="panel credentials" aria-labelledby="cred-title">
    <h2 id="cred-title">Client credentials</h2>
    <dl>
      <dt>Client ID</dt>
      <dd><code class="secret">${app.clientId}</code> <${CopyButton} value=${app.clientId} label="Copy client ID" /></dd>
      <dt>Client Secret</dt>
      <dd><code class="secret">${secret}</code> <${CopyButton} value=${secret} label="Copy client secret" /></dd>
    </dl>
    <p class="warning">This is the only time the secret is shown. Copy it now; you can reset it later.</p>
  </section>`;
}

const STEPS = ['Details', 'Logo', 'Roles and permissions'];

/** Registration in three steps: details (→ credentials), logo (skippable), roles and permissions. */
export function NewApplication({ session }: { session: SessionInfo }) {
  const [step, setStep] = useState(1);
  const [created, setCreated] = useState<{ application: AppView; clientSecret: string } | undefined>(
    undefined,
  );
  const [logo, setLogo] = useState('');
  const form = useForm(EMPTY_APP);
  const create = form.submit(async (v) => {
    setCreated(await api('POST', '/api/applications', v));
    setStep(2);
  });
  const appId = created?.application.id;
  const detail = useLoad(
    () =>
      appId && step === 3 ? api<AppDetail>('GET', `/api/applications/${appId}`) : Promise.resolve(undefined),
    [appId, step],
  );
  return html`<section>
    <h1 tabindex="-1">Register an application</h1>
    <p class="muted">It will belong to ${actingName(session)}.</p>
    <ol class="steps">
      ${STEPS.map(
        (label, i) =>
          html`<li class=${i + 1 === step ? 'current' : i + 1 < step ? 'done' : ''} aria-current=${i + 1 === step ? 'step' : undefined}>
            <span>Step ${i + 1} of 3:</span> ${label}
          </li>`,
      )}
    </ol>
    ${
      step === 1 &&
      html`<form onSubmit=${create} class="panel" novalidate>
        <${FormError} error=${form.errors._form} />
        <${ApplicationFields} form=${form} />
        <button type="submit" disabled=${form.busy}>${form.busy ? 'Registering…' : 'Register and continue'}</button>
      </form>`
    }
    ${created && step > 1 && html`<${Credentials} app=${created.application} secret=${created.clientSecret} />`}
    ${
      created &&
      step === 2 &&
      html`<section class="panel" aria-labelledby="logo-title">
        <h2 id="logo-title">Logo</h2>
        ${logo && html`<img class="logo large" src=${logo} alt=${`Logo of ${created.application.name}`} />`}
        <${LogoEditor} appId=${created.application.id} onSaved=${setLogo} />
        <div class="actions">
          <button type="button" class=${logo ? '' : 'secondary'} onClick=${() => setStep(3)}>
            ${logo ? 'Continue' : 'Skip this step'}
          </button>
        </div>
      </section>`
    }
    ${
      created &&
      step === 3 &&
      html`${detail.data ? html`<${RolesEditor} detail=${detail.data} reload=${detail.reload} key=${JSON.stringify(detail.data.switches)} />` : html`<${Loading} what="roles" />`}
        <div class="actions">
          <button type="button" onClick=${() => navigate(`/applications/${created.application.id}`)}>Finish</button>
        </div>`
    }
  </section>`;
}

/** The application page: details, logo, edit, secret reset, delete, roles, authorizations. */
export function ApplicationPage({ id, session }: { id: number; session: SessionInfo }) {
  const { data, error, reload } = useLoad(() => api<AppDetail>('GET', `/api/applications/${id}`), [id]);
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState('');
  if (error)
    return html`<section><h1 tabindex="-1">Application</h1><${FormError} error=${error} /></section>`;
  if (!data) return html`<${Loading} what="the application" />`;
  const app = data.application;
  return html`<section>
    <div class="title-row">
      <${AppLogo} url=${app.logoUrl} name=${app.name} />
      <h1 tabindex="-1">${app.name}</h1>
    </div>
    ${
      editing
        ? html`<${EditApplication} app=${app} onDone=${() => {
            setEditing(false);
            reload();
          }} />`
        : html`<dl class="details">
          <dt>Description</dt><dd>${app.description}</dd>
          <dt>URL</dt><dd><a href=${app.url} rel="noopener noreferrer">${app.url}</a></dd>
          ${app.callbackUrl && html`<dt>Callback URL</dt><dd><code>${app.callbackUrl}</code></dd>`}
          ${app.clientId && html`<dt>Client ID</dt><dd><code>${app.clientId}</code> <${CopyButton} value=${app.clientId} label="Copy client ID" /></dd>`}
          ${app.accessTokenFormat && html`<dt>Access tokens</dt><dd>${TOKEN_FORMATS.find((f) => f.value === app.accessTokenFormat)?.label}</dd>`}
          ${app.tokenTypes && html`<dt>Keyrock token types</dt><dd>${['bearer', ...app.tokenTypes].join(', ')}</dd>`}
          ${app.jwtSecret && html`<dt>JWT secret</dt><dd><${JwtSecret} secret=${app.jwtSecret} /></dd>`}
          ${
            app.postLogoutRedirectUris?.length > 0 &&
            html`<dt>Sign-out return URLs</dt><dd>${app.postLogoutRedirectUris.map((u) => html`<code>${u}</code> `)}</dd>`
          }
        </dl>`
    }
    ${
      !data.can.authorize &&
      html`<p class="notice">You hold no role here that lets you manage this application or its authorizations.</p>`
    }
    ${
      data.can.manage &&
      !editing &&
      html`<div class="actions">
        <button type="button" class="secondary" onClick=${() => setEditing(true)}>Edit details</button>
        <${ConfirmButton}
          label="Reset client secret"
          question="Reset the client secret? The current one stops working at once."
          confirmLabel="Reset secret"
          busyLabel="Resetting…"
          onConfirm=${async () => setSecret((await api<{ clientSecret: string }>('POST', `/api/applications/${id}/secret`)).clientSecret)}
        />
        <${ConfirmButton}
          label="Delete application"
          question=${`Delete ${app.name} with its roles, permissions and authorizations? This cannot be undone.`}
          confirmLabel="Delete for good"
          busyLabel="Deleting…"
          onConfirm=${async () => {
            await api('DELETE', `/api/applications/${id}`);
            navigate('/');
          }}
        />
      </div>`
    }
    ${secret && html`<${Credentials} app=${app} secret=${secret} />`}
    ${
      data.can.manage &&
      html`<section class="panel" aria-labelledby="logo-title">
        <h2 id="logo-title">Logo</h2>
        <${LogoEditor} appId=${id} onSaved=${reload} />
      </section>`
    }
    ${data.can.manage && html`<${RolesEditor} detail=${data} reload=${reload} key=${JSON.stringify(data.switches)} />`}
    ${data.can.authorize && html`<${Grantees} detail=${data} session=${session} reload=${reload} />`}
    <${AppAgents} detail=${data} />
  </section>`;
}

/**
 * The `jwt` token type's secret, hidden until asked for: whoever configures the application's
 * PEP proxy copies it into PEP_TOKEN_SECRET.
 */
function JwtSecret({ secret }: { secret: string }) {
  const [shown, setShown] = useState(false);
  return shown
    ? html`<code>${secret}</code> <${CopyButton} value=${secret} label="Copy JWT secret" />
        <button type="button" class="secondary small" onClick=${() => setShown(false)}>Hide</button>`
    : html`<button type="button" class="secondary small" onClick=${() => setShown(true)}>Show JWT secret</button>`;
}

/** Keyrock's token types beyond bearer, which clients ask for with `scope=jwt` or `scope=permanent`. */
const KEYROCK_TOKEN_TYPES = [
  {
    value: 'jwt',
    label: 'jwt',
    hint: 'HS256 JWTs signed with this application’s own secret, which its PEP proxy can check itself. Not revocable: they live until they expire.',
  },
  {
    value: 'permanent',
    label: 'permanent',
    hint: 'Tokens that never expire and come without a refresh token; they work until revoked.',
  },
] as const;

const TOKEN_FORMATS = [
  { value: 'opaque', label: 'Opaque (random values, read from Gatehouse)' },
  { value: 'jwt', label: 'JWT (RFC 9068, signed, verified without a call to Gatehouse)' },
];

function EditApplication({ app, onDone }: { app: AppView; onDone: () => void }) {
  const form = useForm({
    name: app.name,
    description: app.description,
    url: app.url,
    callbackUrl: app.callbackUrl,
    accessTokenFormat: app.accessTokenFormat ?? 'opaque',
    postLogoutRedirectUris: (app.postLogoutRedirectUris ?? []).join('\n'),
  });
  const [tokenTypes, setTokenTypes] = useState<string[]>([...(app.tokenTypes ?? [])]);
  const toggle = (type: string, on: boolean) =>
    setTokenTypes((now) =>
      KEYROCK_TOKEN_TYPES.map((t) => t.value).filter((t) => (t === type ? on : now.includes(t))),
    );
  const save = form.submit(async (v) => {
    await api('PUT', `/api/applications/${app.id}`, {
      ...v,
      tokenTypes,
      postLogoutRedirectUris: v.postLogoutRedirectUris
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean),
    });
    onDone();
  });
  return html`<form onSubmit=${save} class="panel" novalidate>
    <h2>Edit details</h2>
    <${FormError} error=${form.errors._form} />
    <${ApplicationFields} form=${form} />
    ${form.field('accessTokenFormat', 'Access tokens', {
      options: TOKEN_FORMATS,
      hint: 'The format of every access token: OAuth and OpenID clients see it. JWTs are read without a call to Gatehouse; a revoked one stays usable until it expires (at most an hour) except through introspection.',
    })}
    <fieldset class="field">
      <legend>Keyrock token types</legend>
      <p class="hint">Bearer tokens are always issued. These are Keyrock’s extra types, which a client asks for per request with <code>scope=jwt</code> or <code>scope=permanent</code>; they do not change the format above.</p>
      ${KEYROCK_TOKEN_TYPES.map(
        (t) => html`<div class="check">
          <input
            type="checkbox"
            id=${`token-type-${t.value}`}
            checked=${tokenTypes.includes(t.value)}
            onChange=${(e: Event) => toggle(t.value, (e.currentTarget as HTMLInputElement).checked)}
          />
          <label for=${`token-type-${t.value}`}><code>${t.label}</code>: ${t.hint}</label>
        </div>`,
      )}
    </fieldset>
    ${form.field('postLogoutRedirectUris', 'Sign-out return URLs', {
      multiline: true,
      hint: 'Where RP-initiated logout may send users back to, one exact http(s) URL per line.',
    })}
    <div class="actions">
      <button type="submit" disabled=${form.busy}>${form.busy ? 'Saving…' : 'Save changes'}</button>
      <button type="button" class="secondary" onClick=${onDone}>Cancel</button>
    </div>
  </form>`;
}
