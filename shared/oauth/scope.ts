import { invalidScope } from '../errors.js';

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), separated by single spaces.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * A requested scope, normalised (duplicates dropped, single spaces), or undefined when none was
 * asked for. Scopes are not interpreted by this server: they are recorded and echoed back.
 */
export function parseScope(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (raw.length > 1000) throw invalidScope('The scope is longer than 1000 characters.');
  const tokens = raw.split(' ').filter((t) => t !== '');
  for (const t of tokens) {
    if (!SCOPE_TOKEN.test(t)) throw invalidScope(`The scope "${t.slice(0, 50)}" is not a valid scope token.`);
  }
  return [...new Set(tokens)].join(' ');
}

/** RFC 6749 §6: a refresh may narrow the original scope, never widen it. */
export function narrowScope(original: string | undefined, requested: string | undefined): string | undefined {
  if (requested === undefined) return original;
  const granted = new Set((original ?? '').split(' ').filter(Boolean));
  const extra = requested.split(' ').filter((t) => !granted.has(t));
  if (extra.length > 0) throw invalidScope(`The scope ${extra.join(' ')} was not granted originally.`);
  return requested;
}
