/**
 * A small client for AWS services that speak JSON: the AWS JSON protocol (DynamoDB, Secrets
 * Manager: one signed `POST /` per call, `X-Amz-Target: <prefix>.<Operation>`, a JSON body in and
 * out) and, for a POST, REST-JSON (SES v2's SendEmail: a signed `POST <path>` with a JSON body).
 *
 * Why not the AWS SDK's clients: on the request path they cost more than everything else a request
 * does. Measured on the benchmark machine against DynamoDB Local (GetItem, 2,000 calls after 200
 * warm-up, `process.cpuUsage()`, three rounds; scripts/doc-layer-cpu.ts): `DynamoDBClient` with its
 * handler cache 581–626 µs of CPU per call, this client under the document layer 252–340 µs, of
 * which SigV4 (aws4) is 8.5 µs; the rest is Node's HTTP client and the sockets, which both share. The SDK's per-call work is its middleware
 * stack, schema-driven serde, endpoint rules and async signer. Its client also weighs about 40 ms of
 * a function's cold start (docs/benchmarks.md, sections 1 and 4; docs/decisions.md).
 *
 * What the SDK did that this keeps: SigV4 signing (aws4, the long-standing signer many AWS tools
 * use), kept-alive connections, up to `maxAttempts` attempts with full-jitter exponential backoff
 * on throttling, 5xx answers and network errors (the SDK's standard retry mode: 100 ms base,
 * 500 ms when throttled, 20 s cap), errors named by their AWS error code with the answer's other
 * fields on them (TransactionCanceledException's CancellationReasons), `$fault` and `$metadata`.
 * What it leaves out: clock-skew correction and the retry token bucket (Lambda's clock is kept
 * in sync, and a function makes a handful of calls per request), endpoint discovery, FIPS and
 * dual-stack endpoints.
 */
import http from 'node:http';
import https from 'node:https';
import aws4 from 'aws4';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
  /** When temporary credentials run out; they are fetched again five minutes before. */
  expiration?: Date | undefined;
}
export type CredentialSource = AwsCredentials | (() => Promise<AwsCredentials>);

export type Json = Record<string, unknown>;

/** What the client sends: signed, ready for the wire. */
export interface WireRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
}
export interface WireResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
/** Sends one request; the default is Node's HTTP client. Tests and the benchmark put their own. */
export type Sender = (request: WireRequest) => Promise<WireResponse>;

/**
 * Wraps every call: sees the operation and its wire-form input, and may answer without calling
 * `next` (the benchmark's canned store, a test's fault) or count what passes (shared/store/metrics.ts).
 */
export type Interceptor = (
  operation: string,
  input: Json,
  next: (input: Json) => Promise<Json>,
) => Promise<Json>;

export interface AwsJsonOptions {
  /** The signing name: `dynamodb`, `secretsmanager`, `ses`. */
  service: string;
  /**
   * The AWS JSON protocol's X-Amz-Target prefix (`DynamoDB_20120810`, `secretsmanager`) and
   * version (DynamoDB speaks 1.0, Secrets Manager 1.1); absent for a REST-JSON service, whose
   * operations are paths (`post`).
   */
  json?: { targetPrefix: string; version: '1.0' | '1.1' };
  region: string;
  /** Another endpoint than the service's own (DynamoDB Local). */
  endpoint?: string | undefined;
  /** The endpoint's first label where it is not the signing name (SES v2: `email`). */
  endpointPrefix?: string;
  credentials: CredentialSource;
  maxAttempts?: number;
  /** An attempt that has not been answered in this time is abandoned and retried. */
  attemptTimeoutMs?: number;
}

export interface ResponseMetadata {
  httpStatusCode: number;
  requestId?: string | undefined;
  attempts: number;
}

/** An error answer of an AWS service, or the network failure that ended the last attempt. */
export class AwsError extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: ResponseMetadata;
  /** The answer's other fields (CancellationReasons, …). */
  [field: string]: unknown;

  constructor(name: string, message: string, metadata: ResponseMetadata, fields: Json = {}) {
    super(message);
    Object.assign(this, fields);
    this.name = name;
    this.$metadata = metadata;
    this.$fault = metadata.httpStatusCode >= 500 || metadata.httpStatusCode === 0 ? 'server' : 'client';
  }
}

/** Error codes the SDK's standard retry mode treats as throttling (retried, with a longer base). */
const THROTTLING = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'RequestThrottled',
  'SlowDown',
]);
/** Error codes the SDK treats as transient whatever their status. */
const TRANSIENT = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const BASE_DELAY_MS = 100;
const THROTTLED_BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 20_000;
const EXPIRY_MARGIN_MS = 5 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a failure is worth another attempt, and with which base delay. */
function retryKind(failure: AwsError): 'throttled' | 'transient' | undefined {
  if (THROTTLING.has(failure.name)) return 'throttled';
  const status = failure.$metadata.httpStatusCode;
  // 0: no answer at all (network); 5xx: the service's own fault.
  if (status === 0 || status >= 500 || TRANSIENT.has(failure.name)) return 'transient';
  return undefined;
}

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 50 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 50 }),
};

/** Node's HTTP client over kept-alive connections, the attempt bounded by `timeoutMs`. */
export function nodeSender(timeoutMs: number): Sender {
  return ({ url, headers, body }) =>
    new Promise((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const request = (secure ? https : http).request(
        {
          hostname: url.hostname,
          port: url.port || undefined,
          path: url.pathname,
          method: 'POST',
          headers,
          agent: secure ? agents.https : agents.http,
          timeout: timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({
              statusCode: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      request.on('timeout', () =>
        request.destroy(
          Object.assign(new Error(`No answer within ${timeoutMs} ms`), { name: 'TimeoutError' }),
        ),
      );
      request.on('error', reject);
      request.end(body);
    });
}

/** The code of an error answer: `__type` after its namespace, or the x-amzn-ErrorType header. */
function errorCode(body: Json, headers: WireResponse['headers']): string {
  const header = headers['x-amzn-errortype'];
  const raw = String(
    body.__type ?? body.code ?? (Array.isArray(header) ? header[0] : header) ?? 'UnknownError',
  );
  return raw.slice(raw.lastIndexOf('#') + 1).split(':')[0]!;
}

function parse(text: string): Json {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Json) : {};
  } catch {
    return {};
  }
}

const header = (headers: WireResponse['headers'], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export class AwsJsonClient {
  readonly region: string;
  /** Replaceable, so tests and the benchmark can answer without a network. */
  send: Sender;
  private readonly url: URL;
  private readonly maxAttempts: number;
  private readonly contentType: string;
  private readonly interceptors: Interceptor[] = [];
  private credentials: AwsCredentials | undefined;
  private pending: Promise<AwsCredentials> | undefined;

  constructor(private readonly options: AwsJsonOptions) {
    this.region = options.region;
    const label = options.endpointPrefix ?? options.service;
    this.url = new URL(options.endpoint ?? `https://${label}.${options.region}.amazonaws.com/`);
    this.maxAttempts = options.maxAttempts ?? 4;
    this.contentType = options.json ? `application/x-amz-json-${options.json.version}` : 'application/json';
    this.send = nodeSender(options.attemptTimeoutMs ?? 10_000);
  }

  /** Adds an interceptor (outermost last); returns what removes it. */
  use(interceptor: Interceptor): () => void {
    this.interceptors.push(interceptor);
    return () => {
      const at = this.interceptors.indexOf(interceptor);
      if (at >= 0) this.interceptors.splice(at, 1);
    };
  }

  /** Calls `operation` (AWS JSON protocol) with a wire-form input; resolves to its answer with `$metadata`. */
  call(operation: string, input: Json): Promise<Json> {
    const json = this.options.json;
    if (!json) throw new Error(`${this.options.service} is a REST-JSON service: post to a path`);
    return this.intercepted(operation, input, this.url, {
      'X-Amz-Target': `${json.targetPrefix}.${operation}`,
    });
  }

  /** Posts `input` to `path` of a REST-JSON service (`operation` names it for interceptors). */
  post(operation: string, path: string, input: Json): Promise<Json> {
    return this.intercepted(operation, input, new URL(path, this.url), {});
  }

  private intercepted(
    operation: string,
    input: Json,
    url: URL,
    headers: Record<string, string>,
  ): Promise<Json> {
    let next = (i: Json) => this.attempts(url, headers, i);
    for (const interceptor of this.interceptors) {
      const inner = next;
      next = (i: Json) => interceptor(operation, i, inner);
    }
    return next(input);
  }

  /** Closes kept-alive connections (the agents are shared by every client of the process). */
  destroy(): void {
    agents.http.destroy();
    agents.https.destroy();
  }

  private async attempts(url: URL, headers: Record<string, string>, input: Json): Promise<Json> {
    const body = JSON.stringify(input);
    for (let attempt = 1; ; attempt++) {
      const request = await this.signed(url, headers, body);
      const outcome = await this.attempt(request, attempt);
      if (!(outcome instanceof AwsError)) return outcome;
      const retry = retryKind(outcome);
      if (retry === undefined || attempt >= this.maxAttempts) throw outcome;
      const base = retry === 'throttled' ? THROTTLED_BASE_DELAY_MS : BASE_DELAY_MS;
      await sleep(Math.random() * Math.min(MAX_DELAY_MS, base * 2 ** (attempt - 1)));
    }
  }

  /** One attempt: the answer with its `$metadata`, or the failure (an error answer or no answer). */
  private async attempt(request: WireRequest, attempt: number): Promise<Json | AwsError> {
    let response: WireResponse;
    try {
      response = await this.send(request);
    } catch (error) {
      // No answer: a reset kept-alive connection, a refused connection, a timeout.
      const e = error as NodeJS.ErrnoException;
      return new AwsError(e.name === 'TimeoutError' ? e.name : (e.code ?? e.name), e.message, {
        httpStatusCode: 0,
        attempts: attempt,
      });
    }
    const answer = parse(response.body);
    const metadata: ResponseMetadata = {
      httpStatusCode: response.statusCode,
      requestId: header(response.headers, 'x-amzn-requestid'),
      attempts: attempt,
    };
    if (response.statusCode >= 200 && response.statusCode < 300) return { ...answer, $metadata: metadata };
    const code = errorCode(answer, response.headers);
    const { __type, message, Message, ...fields } = answer;
    return new AwsError(code, String(message ?? Message ?? code), metadata, fields);
  }

  private async signed(url: URL, headers: Record<string, string>, body: string): Promise<WireRequest> {
    const credentials = await this.currentCredentials();
    const signed = aws4.sign(
      {
        host: url.host,
        path: url.pathname,
        method: 'POST',
        service: this.options.service,
        region: this.region,
        headers: { 'Content-Type': this.contentType, ...headers },
        body,
      },
      credentials,
    );
    return { url, headers: signed.headers as Record<string, string>, body };
  }

  private currentCredentials(): AwsCredentials | Promise<AwsCredentials> {
    const source = this.options.credentials;
    if (typeof source !== 'function') return source;
    const held = this.credentials;
    if (held && (!held.expiration || held.expiration.getTime() - Date.now() > EXPIRY_MARGIN_MS)) return held;
    this.pending ??= source()
      .then((fresh) => {
        this.credentials = fresh;
        return fresh;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }
}

/**
 * The credentials a process has: in Lambda (and wherever AWS_ACCESS_KEY_ID is set) the
 * environment's, read once; elsewhere (`npx idm` on an operator's machine: profiles, SSO, …) the
 * AWS SDK's default chain, loaded on first use. Function bundles leave that package out
 * (infra/bundling.ts): Lambda always sets the environment.
 */
export function defaultCredentials(): CredentialSource {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = process.env;
  if (accessKeyId && secretAccessKey) {
    return { accessKeyId, secretAccessKey, sessionToken: process.env.AWS_SESSION_TOKEN || undefined };
  }
  let provider: (() => Promise<AwsCredentials>) | undefined;
  return async () => {
    if (!provider) {
      const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
      provider = defaultProvider();
    }
    return provider();
  };
}
