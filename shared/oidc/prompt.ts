/**
 * OIDC Core §3.1.2.1 `prompt` and `max_age`, and what the authorization endpoint does next: sign
 * the user in (again), ask for consent, issue, or, under `prompt=none`, answer the client with
 * login_required / consent_required (§3.1.2.6) instead of showing anything.
 */
const PROMPT_VALUES = new Set(['none', 'login', 'consent', 'select_account']);

/** The prompt values asked for; an error message for an invalid combination. */
export function parsePrompt(raw: string | undefined): Set<string> | string {
  const values = new Set((raw ?? '').split(' ').filter(Boolean));
  for (const v of values) {
    if (!PROMPT_VALUES.has(v)) return `prompt value ${v.slice(0, 30)} is not supported.`;
  }
  // §3.1.2.1: "If this parameter contains none with any other value, an error is returned."
  if (values.has('none') && values.size > 1) return 'prompt=none cannot be combined with other values.';
  return values;
}

/** max_age in seconds (§3.1.2.1: a non-negative integer); an error message otherwise. */
export function parseMaxAge(raw: string | undefined): number | undefined | string {
  if (raw === undefined) return undefined;
  if (!/^\d{1,10}$/.test(raw)) return 'max_age must be a non-negative integer number of seconds.';
  return Number(raw);
}

export type NextStep =
  | { kind: 'sign-in'; again: boolean }
  | { kind: 'consent' }
  | { kind: 'issue' }
  | { kind: 'error'; error: 'login_required' | 'consent_required'; description: string };

export interface PromptInput {
  prompt: Set<string>;
  maxAge?: number | undefined;
  /** The session's sign-in time; undefined when signed out, or for a session that did not record it. */
  session: { authTime: number | undefined } | undefined;
  consented: boolean;
  now: number;
}

export function nextStep(input: PromptInput): NextStep {
  const silent = input.prompt.has('none');
  if (!input.session) {
    return silent
      ? { kind: 'error', error: 'login_required', description: 'The user is not signed in.' }
      : { kind: 'sign-in', again: false };
  }
  const { authTime } = input.session;
  // §3.1.2.1 max_age: sign in again when the last sign-in is older (or its time is not known).
  const tooOld =
    input.maxAge !== undefined && (authTime === undefined || input.now - authTime > input.maxAge);
  if (input.prompt.has('login') || tooOld) {
    return silent
      ? { kind: 'error', error: 'login_required', description: 'The user must sign in again (max_age).' }
      : { kind: 'sign-in', again: true };
  }
  if (!input.consented || input.prompt.has('consent')) {
    return silent
      ? {
          kind: 'error',
          error: 'consent_required',
          description: 'The user has not approved this application.',
        }
      : { kind: 'consent' };
  }
  return { kind: 'issue' };
}
