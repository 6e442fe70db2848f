import type { ApiCaller } from '../domain/api-tokens.js';
import type { RedirectTarget } from '../model.js';
import type { Auth } from '../routes.js';
import type { Db } from '../store/db.js';
import type { Session } from '../store/sessions.js';
import type { TokenRecord } from '../store/tokens.js';
import type { HttpEvent } from './types.js';

/** What every function gets, whatever its route's authentication. */
export interface BaseContext {
  db: Db;
  event: HttpEvent;
  requestId: string;
  /**
   * Once an authorization request is known good, an unexpected failure goes back to the client
   * as `server_error` (RFC 6749 §4.1.2.1) rather than as a 500 page.
   */
  redirectErrorsTo(target: RedirectTarget): void;
}

/** What each kind of route authentication adds (see `Auth` in shared/routes.ts). */
export interface AuthContexts {
  none: Record<never, never>;
  /**
   * The bearer token as sent (RFC 6750 §2.1 or §2.3) and the parsed query. `token()` reads and
   * checks it (once; 401 when unknown, expired or revoked); a lookup that reads the token together
   * with what it answers (GET /user) checks the value itself instead.
   */
  bearer: { bearer: string; token: () => Promise<TokenRecord>; query: Map<string, string> };
  session: { session: Session };
  /** The session's read started before the function ran, so it overlaps the function's own. */
  'optional-session': { session: Promise<Session | undefined> };
  /** Keyrock's API token, checked before the function ran: the caller is its live user. */
  'keyrock-token': { caller: ApiCaller };
}

export type Context<A extends Auth> = BaseContext & AuthContexts[A];

/** Per-invocation state the middlewares fill in and the function reads, keyed by its event. */
export interface InvocationState {
  context: BaseContext &
    Partial<{ bearer: unknown; token: unknown; query: unknown; session: unknown; caller: unknown }>;
  fallbackRedirect?: RedirectTarget | undefined;
}

const states = new WeakMap<HttpEvent, InvocationState>();

/** `db` is only created when a function first uses it: routes without table access never do. */
export function startInvocation(db: () => Db, event: HttpEvent, requestId: string): InvocationState {
  const state: InvocationState = {
    context: {
      get db() {
        return db();
      },
      event,
      requestId,
      redirectErrorsTo: (target) => {
        state.fallbackRedirect = target;
      },
    },
  };
  states.set(event, state);
  return state;
}

export function invocation(event: HttpEvent): InvocationState | undefined {
  return states.get(event);
}
