import { html } from 'htm/preact';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';

export { html };

/** Client-side navigation (history API); the server answers every portal path with index.html. */
export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** Turns a click on a same-origin link into client-side navigation. */
export function onLinkClick(e: MouseEvent): void {
  const a = (e.target as HTMLElement).closest('a');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target) return;
  if (a.getAttribute('href')?.startsWith('#')) return; // in-page anchors (skip link) stay native
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/oauth2/') || a.hasAttribute('download'))
    return;
  e.preventDefault();
  navigate(url.pathname + url.search);
}

let idCounter = 0;

export interface Option {
  value: string;
  label: string;
}

export interface FieldProps {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  error?: string | undefined;
  type?: string;
  hint?: string;
  options?: Option[];
  multiline?: boolean;
  autocomplete?: string;
  required?: boolean;
}

/** One input with its visible label, an optional hint and its error right below it. */
export function Field(p: FieldProps) {
  const described = [p.hint ? `${p.id}-hint` : '', p.error ? `${p.id}-error` : ''].filter(Boolean).join(' ');
  const common = {
    id: p.id,
    name: p.id,
    value: p.value,
    'aria-invalid': p.error ? 'true' : undefined,
    'aria-describedby': described || undefined,
    required: p.required,
    onInput: (e: Event) => p.onInput((e.currentTarget as HTMLInputElement).value),
  };
  let control: ComponentChildren;
  if (p.options) {
    // A select reports a choice once, on change (onInput as well would save twice).
    control = html`<select ...${{ ...common, onInput: undefined }} onChange=${common.onInput}>
      ${p.options.map((o) => html`<option value=${o.value}>${o.label}</option>`)}
    </select>`;
  } else if (p.multiline) {
    control = html`<textarea ...${common} rows="3"></textarea>`;
  } else {
    control = html`<input ...${common} type=${p.type ?? 'text'} autocomplete=${p.autocomplete} />`;
  }
  return html`<div class=${`field${p.error ? ' has-error' : ''}`}>
    <label for=${p.id}>${p.label}</label>
    ${control}
    ${p.hint && html`<p class="hint" id=${`${p.id}-hint`}>${p.hint}</p>`}
    ${p.error && html`<p class="field-error" id=${`${p.id}-error`}>${p.error}</p>`}
  </div>`;
}

export function FormError({ error }: { error?: string | undefined }) {
  return error ? html`<p class="form-error" role="alert">${error}</p>` : null;
}

type Values = Record<string, string>;

/**
 * Form state: values, a busy flag for the submit button, and server errors placed next to the
 * field they name (or above the form when they name none of its fields).
 */
export function useForm<T extends Values>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [prefix] = useState(() => `f${++idCounter}`);
  const field = (name: keyof T & string, label: string, extra: Partial<FieldProps> = {}) =>
    html`<${Field}
      id=${`${prefix}-${name}`}
      label=${label}
      value=${values[name]}
      error=${errors[name]}
      onInput=${(v: string) => setValues((s) => ({ ...s, [name]: v }))}
      ...${extra}
    />`;
  const submit = (fn: (values: T) => Promise<void>) => async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await fn(values);
    } catch (error) {
      setErrors(errorsOf(error, Object.keys(values)));
    } finally {
      setBusy(false);
    }
  };
  return {
    values,
    setValues,
    errors,
    busy,
    field,
    submit,
    reset: () => setValues(initial),
  };
}

export function errorsOf(error: unknown, fields: string[] = []): Record<string, string> {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  const field = error instanceof ApiError ? error.field : undefined;
  return field && fields.includes(field) ? { [field]: message } : { _form: message };
}

/** Copies a value and says so; the value stays visible and selectable for manual copying. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [done, setDone] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setDone('Copied');
    } catch {
      setDone('Copy failed: select the text and copy it by hand');
    }
  };
  return html`<button type="button" class="secondary small" onClick=${copy}>${label}</button>
    <span class="status" role="status">${done}</span>`;
}

/** A two-step button for destructive actions: the first click asks, the second does it. */
export function ConfirmButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  busyLabel?: string;
  onConfirm: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking) {
    return html`<button type="button" class="danger" onClick=${() => setAsking(true)}>${props.label}</button>`;
  }
  const confirm = async () => {
    setBusy(true);
    setError('');
    try {
      await props.onConfirm();
      setAsking(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Something went wrong.');
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="confirm" role="group" aria-label=${props.question}>
    <p>${props.question}</p>
    <button type="button" class="danger" ref=${yes} disabled=${busy} onClick=${confirm}>
      ${busy ? (props.busyLabel ?? 'Working…') : props.confirmLabel}
    </button>
    <button type="button" class="secondary" disabled=${busy} onClick=${() => setAsking(false)}>Cancel</button>
    <${FormError} error=${error} />
  </div>`;
}

export function Loading({ what }: { what: string }) {
  return html`<p class="loading" role="status">Loading ${what}…</p>`;
}

/** Runs a loader when its key changes; returns data, an error message and a reload function. */
export function useLoad<T>(load: () => Promise<T>, key: unknown[]) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setError('');
    load().then(
      (d) => live && setData(d),
      (e: unknown) => live && setError(e instanceof Error ? e.message : 'Loading failed.'),
    );
    return () => {
      live = false;
    };
  }, [...key, tick]);
  return { data, error, reload: () => setTick((t) => t + 1), setData };
}

export function AppLogo({ url, name }: { url?: string | undefined; name: string }) {
  return url
    ? html`<img class="logo" src=${url} alt=${`Logo of ${name}`} width="64" height="64" />`
    : html`<span class="logo placeholder" aria-hidden="true">${name.slice(0, 1).toUpperCase()}</span>`;
}
