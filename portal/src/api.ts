/**
 * The portal's only way to talk to the server. The CSRF token lives in memory only (never in
 * storage a script injected elsewhere could read later); it is sent on every state-changing call.
 */
let csrfToken = '';
let onSignedOut: () => void = () => undefined;

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when the server says the session is gone (expired, signed out elsewhere). */
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

function failure(status: number, data: { error_description?: string; field?: string }): ApiError {
  return new ApiError(
    status,
    data.error_description ?? `The server answered ${status}; try again in a moment.`,
    data.field,
  );
}

export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw new ApiError(0, 'The server cannot be reached; check your connection and try again.');
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    if (res.status === 401 && path !== '/api/session') onSignedOut();
    throw failure(res.status, data);
  }
  return data as T;
}

/** Uploads a file as the raw request body, reporting progress (fetch cannot report upload progress). */
export function upload<T>(path: string, file: Blob, onProgress: (percent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('x-csrf-token', csrfToken);
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError(0, 'The upload failed; check your connection and try again.'));
    xhr.onload = () => {
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        // keep the empty object
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
      else {
        if (xhr.status === 401) onSignedOut();
        reject(failure(xhr.status, data));
      }
    };
    xhr.send(file);
  });
}

export interface SessionInfo {
  user: { id: number; email: string; nickName: string; displayName: string; admin?: boolean } | null;
  csrfToken?: string;
  acting?: { kind: 'user' | 'org'; id: number; name?: string };
  organizations?: { id: number; name: string; role: 'owner' | 'member' }[];
}

export interface AppSummary {
  id: number;
  name: string;
  description: string;
  url: string;
  logoUrl?: string;
}

export interface AppView extends AppSummary {
  callbackUrl: string;
  clientId: string;
  /** RFC 9068 JWT access tokens, or random opaque values (the default). */
  accessTokenFormat: 'opaque' | 'jwt';
  /** Where RP-initiated logout may return to (exact URLs). */
  postLogoutRedirectUris: string[];
  /** Keyrock's token types a client may ask for with `scope=` (bearer is always allowed). */
  tokenTypes: ('jwt' | 'permanent')[];
  /** The HS256 secret of Keyrock `jwt` tokens; only in the Provider's detail view. */
  jwtSecret?: string;
}

export interface Role {
  id: number;
  name: string;
  builtIn: 'provider' | 'purchaser' | null;
}

export interface Permission {
  id: number;
  name: string;
  description: string;
  verb: string;
  path: string;
}

export interface Grantee {
  kind: 'user' | 'org';
  id: number;
  label: string;
  roleIds: number[];
  /** An organization's roles held by its members alone or its owners alone (Keyrock's grants). */
  only: Record<string, 'member' | 'owner'>;
}

export interface AppDetail {
  application: AppView;
  can: { manage: boolean; authorize: boolean };
  roles?: Role[];
  permissions?: Permission[];
  switches?: Record<string, number[]>;
  grantees?: Grantee[];
}
