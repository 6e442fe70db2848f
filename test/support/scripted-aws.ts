/**
 * A scripted AWS JSON endpoint for faults a real server cannot be made to produce on demand
 * (throttling, a run of transaction conflicts, unprocessed batch work): it takes the place of the
 * client's HTTP sender (shared/store/aws-json.ts), so signing, the JSON body, the answer's parsing
 * and the client's retries all run as against DynamoDB; only the network is gone.
 */
import type { AwsJsonClient, Json, WireResponse } from '../../shared/store/aws-json.js';

export interface ScriptedAnswer {
  status: number;
  body: Json;
}

export const ok = (body: Json = {}): ScriptedAnswer => ({ status: 200, body });

/** An error answer as DynamoDB writes one: status, namespaced `__type`, `message`, other fields. */
export const failure = (
  status: number,
  code: string,
  message: string,
  fields: Json = {},
): ScriptedAnswer => ({
  status,
  body: { __type: `com.amazonaws.dynamodb.v20120810#${code}`, message, ...fields },
});

/** TransactionCanceledException with one reason code per item, as DynamoDB reports them. */
export const cancelled = (...codes: string[]): ScriptedAnswer =>
  failure(
    400,
    'TransactionCanceledException',
    `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    {
      CancellationReasons: codes.map((Code) => ({ Code })),
    },
  );

export interface Scripted {
  /** Answers for `operation`, in turn; the last one keeps answering. */
  on(operation: string, ...answers: ScriptedAnswer[]): Scripted;
  /** The wire-form inputs sent for `operation`, retries included, in order. */
  calls(operation: string): Json[];
  /** The signed requests' headers, in order. */
  readonly headers: Record<string, string>[];
  reset(): void;
  restore(): void;
}

export function scriptedAws(client: AwsJsonClient): Scripted {
  const original = client.send;
  const answers = new Map<string, ScriptedAnswer[]>();
  const sent: { operation: string; input: Json }[] = [];
  const headers: Record<string, string>[] = [];
  client.send = async (request): Promise<WireResponse> => {
    const operation = String(request.headers['X-Amz-Target']).split('.')[1]!;
    sent.push({ operation, input: JSON.parse(request.body) as Json });
    headers.push(request.headers);
    const queue = answers.get(operation);
    if (!queue?.length) throw new Error(`scripted AWS: no answer for ${operation}`);
    const answer = queue.length > 1 ? queue.shift()! : queue[0]!;
    return {
      statusCode: answer.status,
      headers: { 'x-amzn-requestid': 'scripted' },
      body: JSON.stringify(answer.body),
    };
  };
  const scripted: Scripted = {
    on(operation, ...list) {
      answers.set(operation, list);
      return scripted;
    },
    calls: (operation) => sent.filter((s) => s.operation === operation).map((s) => s.input),
    headers,
    reset() {
      answers.clear();
      sent.length = 0;
      headers.length = 0;
    },
    restore() {
      client.send = original;
    },
  };
  return scripted;
}
