import type { GrantType } from '../../model.js';
import type { Client } from '../../store/applications.js';
import type { Db } from '../../store/db.js';
import type { TokenRequestNeeds, TokenRequestRecords } from '../../store/token-request.js';
import type { Minted } from '../tokens.js';

export interface GrantContext {
  db: Db;
  form: Map<string, string>;
  /** The authenticated client. */
  client: Client;
  /** What `needs` asked for, read in the same BatchGetItem as the client. */
  read: TokenRequestRecords;
  /** The issuer (shared/oauth/metadata.ts `issuerFor`), for tokens that name it. */
  issuer: string;
}

/**
 * One module per grant type, each exporting this shape (as panva/node-oidc-provider does): the
 * token endpoint reads the client and what `needs(form)` names in one round trip, checks the
 * client may use the grant, then calls `handle`.
 */
export interface Grant {
  /** The grant_type value (RFC 6749 §4). */
  type: string;
  /** The application setting that enables it. */
  enabledBy: GrantType;
  /** What to read with the client; validates required parameters before any I/O. */
  needs(form: Map<string, string>): TokenRequestNeeds;
  handle(ctx: GrantContext): Promise<Minted>;
}

export function required(form: Map<string, string>, name: string, error: (d: string) => Error): string {
  const value = form.get(name);
  if (value === undefined || value === '') throw error(`${name} is required.`);
  return value;
}
