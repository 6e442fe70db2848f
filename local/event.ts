import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpEvent, HttpResult, LambdaContext } from '../shared/http/types.js';

/** Content types API Gateway passes as text; everything else arrives base64-encoded. */
function isText(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/x-www-form-urlencoded' ||
    type === 'application/xml'
  );
}

/**
 * Builds an API Gateway HTTP API payload 2.0 event from a Node request, as API Gateway would:
 * lower-cased header names, repeated headers joined with commas, cookies split into `cookies`,
 * the raw query string kept verbatim, and binary bodies base64-encoded.
 */
export function toEvent(
  req: IncomingMessage,
  body: Buffer,
  route: { method: string; path: string },
  pathParameters: Record<string, string>,
): HttpEvent {
  return buildEvent(
    {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      rawHeaders: req.rawHeaders,
      body,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      protocol: `HTTP/${req.httpVersion}`,
    },
    route,
    pathParameters,
  );
}

/** A request as plain data: what the local server reads off the socket, or what `idm invoke` is given. */
export interface RawRequest {
  method: string;
  /** Path and raw query string, as on the request line. */
  url: string;
  /** Header names and values alternating, in arrival order (Node's `rawHeaders`). */
  rawHeaders: string[];
  body: Buffer;
  sourceIp?: string;
  protocol?: string;
}

/** The payload 2.0 event for a request (see toEvent); shared by the local server and `idm invoke`. */
export function buildEvent(
  req: RawRequest,
  route: { method: string; path: string },
  pathParameters: Record<string, string>,
): HttpEvent {
  const { url, body } = req;
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const rawQueryString = q === -1 ? '' : url.slice(q + 1);
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const value = req.rawHeaders[i + 1]!;
    if (name === 'cookie') {
      cookies = [
        ...(cookies ?? []),
        ...value
          .split(';')
          .map((c) => c.trim())
          .filter(Boolean),
      ];
      continue;
    }
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  const queryStringParameters: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(rawQueryString)) {
    queryStringParameters[k] =
      queryStringParameters[k] === undefined ? v : `${queryStringParameters[k]},${v}`;
  }
  const text = isText(headers['content-type']);
  const now = new Date();
  const routeKey = `${route.method} ${route.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    ...(rawQueryString ? { queryStringParameters } : {}),
    ...(Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method,
        path: rawPath,
        protocol: req.protocol ?? 'HTTP/1.1',
        sourceIp: req.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !text,
  };
}

export function lambdaContext(functionName: string, requestId: string): LambdaContext {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Writes a handler's result back as API Gateway would: one Set-Cookie per cookie, base64 decoded. */
export function writeResult(res: ServerResponse, result: HttpResult): void {
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  if (result.cookies && result.cookies.length > 0) res.setHeader('set-cookie', result.cookies);
  const body = result.body
    ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  res.setHeader('content-length', body.length);
  res.statusCode = result.statusCode;
  res.end(body);
}
