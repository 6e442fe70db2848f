/**
 * The AWS JSON client the store speaks DynamoDB and Secrets Manager with (shared/store/aws-json.ts),
 * against a real local HTTP server playing the service: what it signs, and what it does with
 * failures AWS produces only now and then (5xx, throttling, a connection reset on a kept-alive
 * socket, no answer at all). Answers that succeed are covered against DynamoDB Local by the
 * document layer's tests.
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sesMailer } from '../shared/mail/ses.js';
import {
  AwsError,
  AwsJsonClient,
  type AwsJsonOptions,
  defaultCredentials,
} from '../shared/store/aws-json.js';

interface Received {
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}
type Reply = (res: ServerResponse, received: Received) => void;

let server: Server;
let endpoint: string;
let replies: Reply[] = [];
const received: Received[] = [];

const json =
  (status: number, body: object, headers: Record<string, string> = {}): Reply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', ...headers });
    res.end(JSON.stringify(body));
  };
const error = (status: number, code: string, message: string) =>
  json(status, { __type: `com.amazonaws.dynamodb.v20120810#${code}`, message });
/** Drops the connection without answering, as a kept-alive socket the far end closed does. */
const reset: Reply = (res) => res.socket?.destroy();
const silence: Reply = () => undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      (replies.length > 1 ? replies.shift()! : replies[0]!)(res, r);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received.length = 0;
  replies = [];
});

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const dynamo = (options: Partial<AwsJsonOptions> = {}) =>
  new AwsJsonClient({
    service: 'dynamodb',
    json: { targetPrefix: 'DynamoDB_20120810', version: '1.0' },
    region: 'eu-west-1',
    endpoint,
    credentials,
    ...options,
  });

/** SHA-256 for the SDK's own signer, from node:crypto. */
type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data) =>
  typeof data === 'string'
    ? data
    : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
class Sha256 {
  private readonly hash;
  constructor(secret?: Data) {
    this.hash = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: Data) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

describe('AWS JSON client', () => {
  it('sends the operation as a JSON 1.0 POST signed with SigV4, as the AWS SDK signs it', async () => {
    replies = [json(200, { Item: { PK: { S: 'A' } } }, { 'x-amzn-requestid': 'R1' })];
    const client = dynamo({ credentials: { ...credentials, sessionToken: 'SESSION' } });
    const out = await client.call('GetItem', { TableName: 't', Key: { PK: { S: 'A' } } });
    expect(out).toEqual({
      Item: { PK: { S: 'A' } },
      $metadata: { httpStatusCode: 200, requestId: 'R1', attempts: 1 },
    });

    const [sent] = received;
    expect(sent!.url).toBe('/');
    expect(sent!.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(sent!.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(sent!.headers['x-amz-security-token']).toBe('SESSION');
    expect(JSON.parse(sent!.body)).toEqual({ TableName: 't', Key: { PK: { S: 'A' } } });
    const date = String(sent!.headers['x-amz-date']);
    expect(sent!.headers.authorization).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/${date.slice(0, 8)}/eu-west-1/dynamodb/aws4_request, `,
      ),
    );

    // The AWS SDK's signer, given the same request at the same instant, writes the same signature.
    const url = new URL(endpoint);
    const sdk = new SignatureV4({
      service: 'dynamodb',
      region: 'eu-west-1',
      credentials: { ...credentials, sessionToken: 'SESSION' },
      sha256: Sha256,
      // DynamoDB's JSON requests carry no x-amz-content-sha256 header (only S3's need it).
      applyChecksum: false,
    });
    const signedHeaders = /SignedHeaders=([^,]+)/.exec(String(sent!.headers.authorization))![1]!.split(';');
    const headers = Object.fromEntries(signedHeaders.map((h) => [h, String(sent!.headers[h])]));
    const expected = await sdk.sign(
      {
        method: 'POST',
        protocol: 'http:',
        hostname: url.hostname,
        port: Number(url.port),
        path: '/',
        headers,
        body: sent!.body,
      },
      {
        signingDate: new Date(
          `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
        ),
      },
    );
    const signature = (value: unknown) => /Signature=([0-9a-f]{64})/.exec(String(value))?.[1];
    expect(signature(sent!.headers.authorization)).toBe(signature(expected.headers.authorization));
    client.destroy();
  });

  it('speaks JSON 1.1 to Secrets Manager, under its own target prefix', async () => {
    replies = [json(200, { SecretString: 'x' })];
    const client = new AwsJsonClient({
      service: 'secretsmanager',
      json: { targetPrefix: 'secretsmanager', version: '1.1' },
      region: 'eu-west-1',
      endpoint,
      credentials,
    });
    expect((await client.call('GetSecretValue', { SecretId: 's' })).SecretString).toBe('x');
    expect(received[0]!.headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(received[0]!.headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
    expect(received[0]!.headers.authorization).toContain('/eu-west-1/secretsmanager/aws4_request');
  });

  it('sends mail through SES v2 as its REST-JSON SendEmail request', async () => {
    replies = [json(200, { MessageId: 'm-1' })];
    process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret';
    try {
      await sesMailer('eu-west-1', 'idm@example.com', 'gatehouse', endpoint).send({
        to: 'ada@example.com',
        subject: 'Confirm',
        text: 'plain',
        html: '<p>html</p>',
      });
    } finally {
      delete process.env.AWS_ACCESS_KEY_ID;
      delete process.env.AWS_SECRET_ACCESS_KEY;
    }
    const [sent] = received;
    expect(sent!.url).toBe('/v2/email/outbound-emails');
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(sent!.headers['x-amz-target']).toBeUndefined();
    expect(sent!.headers.authorization).toContain('/eu-west-1/ses/aws4_request');
    expect(JSON.parse(sent!.body)).toEqual({
      FromEmailAddress: 'idm@example.com',
      Destination: { ToAddresses: ['ada@example.com'] },
      ConfigurationSetName: 'gatehouse',
      Content: {
        Simple: {
          Subject: { Data: 'Confirm', Charset: 'UTF-8' },
          Body: {
            Text: { Data: 'plain', Charset: 'UTF-8' },
            Html: { Data: '<p>html</p>', Charset: 'UTF-8' },
          },
        },
      },
    });
  });

  it('names a client error by its code, keeps its fields, and does not retry it', async () => {
    replies = [
      json(400, {
        __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
        Message: 'Transaction cancelled',
        CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
      }),
    ];
    const failure = await dynamo()
      .call('TransactWriteItems', { TransactItems: [] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AwsError);
    expect(failure).toMatchObject({
      name: 'TransactionCanceledException',
      message: 'Transaction cancelled',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, attempts: 1 },
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
    });
    expect(received).toHaveLength(1);
  });

  it('retries a 5xx answer and a reset connection, and answers with the attempt that worked', async () => {
    replies = [error(500, 'InternalServerError', 'Internal server error'), reset, json(200, {})];
    const out = await dynamo().call('PutItem', { TableName: 't', Item: {} });
    expect(out.$metadata).toMatchObject({ httpStatusCode: 200, attempts: 3 });
    expect(received).toHaveLength(3);
    // Every attempt carries the same body.
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
  });

  it('gives up on throttling after its attempts, with the service error', async () => {
    replies = [error(400, 'ProvisionedThroughputExceededException', 'Rate exceeded')];
    await expect(dynamo({ maxAttempts: 2 }).call('GetItem', {})).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
      message: 'Rate exceeded',
      $metadata: { httpStatusCode: 400, attempts: 2 },
    });
    expect(received).toHaveLength(2);
  });

  it('abandons an attempt with no answer and fails with a TimeoutError after the last', async () => {
    replies = [silence];
    const started = performance.now();
    await expect(dynamo({ maxAttempts: 2, attemptTimeoutMs: 150 }).call('GetItem', {})).rejects.toMatchObject(
      {
        name: 'TimeoutError',
        $fault: 'server',
        $metadata: { httpStatusCode: 0, attempts: 2 },
      },
    );
    expect(received).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('fetches temporary credentials again before they run out, once for calls made together', async () => {
    replies = [json(200, {})];
    let fetched = 0;
    const client = dynamo({
      credentials: async () => {
        fetched++;
        // The first set runs out within the five-minute margin; the second lasts an hour.
        const expiration = new Date(Date.now() + (fetched === 1 ? 60_000 : 3_600_000));
        return { accessKeyId: `KEY${fetched}`, secretAccessKey: 'secret', expiration };
      },
    });
    await Promise.all([client.call('GetItem', {}), client.call('GetItem', {})]);
    expect(fetched).toBe(1);
    await client.call('GetItem', {});
    await client.call('GetItem', {});
    expect(fetched).toBe(2);
    expect(received.map((r) => /Credential=(\w+)\//.exec(String(r.headers.authorization))?.[1])).toEqual([
      'KEY1',
      'KEY1',
      'KEY2',
      'KEY2',
    ]);
  });

  describe('default credentials', () => {
    const saved = { ...process.env };
    afterAll(() => {
      process.env = saved;
    });

    it("are the environment's where it has them, as in Lambda", () => {
      process.env.AWS_ACCESS_KEY_ID = 'ASIAENV';
      process.env.AWS_SECRET_ACCESS_KEY = 'env-secret';
      process.env.AWS_SESSION_TOKEN = 'env-session';
      expect(defaultCredentials()).toEqual({
        accessKeyId: 'ASIAENV',
        secretAccessKey: 'env-secret',
        sessionToken: 'env-session',
      });
    });

    it("come from the AWS SDK's default chain elsewhere, which says when it finds none", async () => {
      for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE']) {
        delete process.env[name];
      }
      // No profile files, no instance metadata: the chain has nothing to find here.
      process.env.AWS_SHARED_CREDENTIALS_FILE = '/nonexistent/credentials';
      process.env.AWS_CONFIG_FILE = '/nonexistent/config';
      process.env.AWS_EC2_METADATA_DISABLED = 'true';
      const source = defaultCredentials();
      expect(typeof source).toBe('function');
      await expect((source as () => Promise<unknown>)()).rejects.toThrow(
        /Could not load credentials from any providers/,
      );
    });
  });
});
