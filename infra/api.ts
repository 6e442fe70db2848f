import { Fn, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export interface GatehouseApiProps {
  readonly throttleRate: number;
  readonly throttleBurst: number;
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/** One JSON object per request, so CloudWatch Logs Insights can query the fields directly. */
const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  latency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  userAgent: '$context.identity.userAgent',
});

/**
 * The HTTP API with its throttled `$default` stage and access logs. Its routes live in the area
 * nested stacks (infra/area-stack.ts): CloudFront needs only the API's endpoint, and the
 * functions need CloudFront's URL, so the API comes first and its routes after, free of cycles.
 *
 * Resources go into the stack's scope so their logical IDs stay those of the deployed stack.
 */
export class GatehouseApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The execute-api host name, CloudFront's origin for the API paths. */
  readonly domainName: string;

  constructor(scope: Construct, id: string, props: GatehouseApiProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.api = new HttpApi(stack, 'Api', {
      description: 'Gatehouse identity manager',
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(stack, 'ApiAccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.stage = new HttpStage(stack, 'ApiStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttleRate, burstLimit: props.throttleBurst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });
    this.domainName = Fn.select(2, Fn.split('/', this.api.apiEndpoint));
  }
}
