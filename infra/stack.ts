import {
  CfnOutput,
  DefaultStackSynthesizer,
  Duration,
  Fn,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct, IConstruct } from 'constructs';
import { PAGE_CSP } from '../shared/http/security-headers.js';
import type { Route } from '../shared/routes.js';
import { TABLE_SCHEMA } from '../shared/store/table.js';
import { constructId, RouteFunctions } from './route-functions.js';
import { readSettings } from './settings.js';

export interface GatehouseStackProps extends StackProps {
  /** The route table (shared/routes.ts); tests may pass their own. */
  readonly routes: readonly Route[];
  /** Repository root: functions/, package-lock.json and tsconfig.json live here. */
  readonly projectRoot: string;
  /** The built portal (portal/dist). */
  readonly portalDir: string;
}

/**
 * CloudFront path patterns that go to the HTTP API, derived from the route table: a one-segment
 * route (`/user`) matches itself, a deeper one sends its whole first segment (`/users/*`).
 */
export function apiPathPatterns(routes: readonly Route[]): string[] {
  const patterns = new Set<string>();
  for (const route of routes) {
    const segments = route.path.split('/').slice(1);
    const first = segments[0] ?? '';
    if (first === '' || first.includes('{') || first.includes('*')) {
      throw new Error(`Route ${route.method} ${route.path}: the first path segment must be a literal.`);
    }
    patterns.add(segments.length === 1 ? `/${first}` : `/${first}/*`);
  }
  return [...patterns].sort();
}

/**
 * SPA fallback as a viewer-request function on the portal behaviour only: a path without a file
 * extension is the portal's client-side route and gets /index.html. Distribution-wide error
 * responses (403/404 → index.html) would also rewrite the API's JSON 403/404 into an HTML 200.
 */
export const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/** The whole service: table, buckets, one Lambda per route, HTTP API, CloudFront. */
export class GatehouseStack extends Stack {
  readonly api: HttpApi;
  readonly table: Table;
  readonly distribution: Distribution;
  readonly functions: RouteFunctions;

  constructor(scope: Construct, id: string, props: GatehouseStackProps) {
    super(scope, id, props);
    const settings = readSettings(this.node);
    const destroy = settings.removal === 'destroy';
    const removalPolicy = destroy ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    const logRetention = settings.logRetentionDays as RetentionDays;

    // --- DynamoDB: the single table, keys from the same schema local runs use.
    const attr = (name: string) => ({ name, type: AttributeType.STRING });
    this.table = new Table(this, 'Table', {
      partitionKey: attr(TABLE_SCHEMA.partitionKey),
      sortKey: attr(TABLE_SCHEMA.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      deletionProtection: !destroy,
      removalPolicy,
    });
    for (const index of TABLE_SCHEMA.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: attr(index.partitionKey),
        sortKey: attr(index.sortKey),
        projectionType: ProjectionType.ALL,
      });
    }

    // --- S3: access logs, logos, portal. Private, encrypted, TLS only.
    const logsBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // CloudFront standard logging writes through an ACL grant, so ACLs stay enabled here.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(settings.logRetentionDays) }],
      removalPolicy,
      autoDeleteObjects: destroy,
    });
    Validations.of(logsBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket itself; logging it into itself would loop.',
    });
    const privateBucket = (id: string, prefix: string, policy: RemovalPolicy) =>
      new Bucket(this, id, {
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        minimumTLSVersion: 1.2,
        objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
        serverAccessLogsBucket: logsBucket,
        serverAccessLogsPrefix: prefix,
        removalPolicy: policy,
        autoDeleteObjects: policy === RemovalPolicy.DESTROY,
      });
    const logoBucket = privateBucket('Logos', 's3/logos/', removalPolicy);
    const portalBucket = privateBucket('Portal', 's3/portal/', removalPolicy);

    // --- HTTP API, created before the functions: CloudFront needs only its endpoint, and the
    // functions need CloudFront's URL (IDM_PUBLIC_URL), so nothing loops.
    this.api = new HttpApi(this, 'Api', {
      description: 'Gatehouse identity manager',
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: logRetention, removalPolicy });
    const stage = new HttpStage(this, 'ApiStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: settings.throttleRate, burstLimit: settings.throttleBurst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
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
          }),
        ),
      },
    });
    const apiDomain = Fn.select(2, Fn.split('/', this.api.apiEndpoint));

    // --- CloudFront in front of everything.
    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Gatehouse security headers (handlers may set stricter ones)',
      securityHeadersBehavior: {
        // override: false keeps what a handler chose (e.g. the API's default-src 'none').
        contentSecurityPolicy: { contentSecurityPolicy: PAGE_CSP, override: false },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: false },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
      },
      removeHeaders: ['server'],
    });
    const spaRewrite = new CloudFrontFunction(this, 'SpaRewrite', {
      code: FunctionCode.fromInline(SPA_REWRITE),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Portal client-side routes serve /index.html',
    });
    const apiBehavior: BehaviorOptions = {
      origin: new HttpOrigin(apiDomain, {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Cookies, query strings and headers reach the API; Host must be the API's own.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: headers,
      compress: true,
    };
    const additionalBehaviors: Record<string, BehaviorOptions> = {
      '/logos/*': {
        origin: S3BucketOrigin.withOriginAccessControl(logoBucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
      },
    };
    for (const pattern of apiPathPatterns(props.routes)) additionalBehaviors[pattern] = apiBehavior;

    const webAcl = settings.wafRateLimit === undefined ? undefined : this.rateLimitAcl(settings.wafRateLimit);
    const custom = settings.domainName !== undefined && settings.certificateArn !== undefined;
    this.distribution = new Distribution(this, 'Cdn', {
      comment: 'Gatehouse',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(portalBucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      additionalBehaviors,
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: logsBucket,
      logFilePrefix: 'cloudfront/',
      ...(custom
        ? {
            domainNames: [settings.domainName!],
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
            certificate: Certificate.fromCertificateArn(this, 'Certificate', settings.certificateArn!),
          }
        : {}),
      ...(webAcl ? { webAclId: webAcl.attrArn } : {}),
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'An identity service for a global audience; no country is excluded.',
    });
    if (!webAcl) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'WAF is opt-in (context wafRateLimit); the HTTP API stage throttles and the sign-in guard limits guessing.',
      });
    }
    if (!custom) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain CloudFront serves its default *.cloudfront.net certificate, whose TLS policy cannot be set; with domainName/certificateArn the policy is TLSv1.2_2021.',
      });
    }

    const publicUrl = custom
      ? `https://${settings.domainName}`
      : `https://${this.distribution.distributionDomainName}`;

    // --- Functions and routes, both built from the route table.
    this.functions = new RouteFunctions(this, 'Functions', {
      routes: props.routes,
      projectRoot: props.projectRoot,
      table: this.table,
      logoBucket,
      environment: { tableName: this.table.tableName, logoBucket: logoBucket.bucketName, publicUrl },
      logRetention,
      logRemovalPolicy: removalPolicy,
    });
    for (const route of props.routes) {
      const fn = this.functions.functions.get(route.fn)!;
      const route_ = this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method as keyof typeof HttpMethod]],
        integration: new HttpLambdaIntegration(`${constructId(route.fn)}${route.method}Integration`, fn),
      });
      for (const r of route_) {
        Validations.of(r).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason:
            'Authorization is the service itself: OAuth 2.0 bearer tokens, client credentials and session cookies are checked in the functions (RFC 6749/6750); an API Gateway authorizer cannot express that.',
        });
      }
    }
    for (const fn of this.functions.functions.values()) {
      Validations.of(fn).acknowledge({
        id: 'AwsSolutions-L1',
        reason: 'Node.js 22 is the runtime the service is built and tested for (docs/architecture.md).',
      });
    }

    // --- The portal's static files, then a cache invalidation.
    const deployment = new BucketDeployment(this, 'PortalFiles', {
      sources: [Source.asset(props.portalDir)],
      destinationBucket: portalBucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 256,
      prune: true,
    });
    this.acknowledgeCdkHelpers(deployment, portalBucket);

    new CfnOutput(this, 'PortalUrl', { value: publicUrl, description: 'The portal and OAuth issuer URL' });
    new CfnOutput(this, 'ApiUrl', {
      value: stage.url,
      description: 'The HTTP API endpoint (CloudFront forwards the API paths here)',
    });
    new CfnOutput(this, 'TableName', {
      value: this.table.tableName,
      description: 'IDM_TABLE_NAME for `npx idm` against this deployment',
    });
    new CfnOutput(this, 'LogoBucketName', { value: logoBucket.bucketName, description: 'IDM_LOGO_BUCKET' });
  }

  /** A WAF web ACL with one rate-based rule per client IP (CloudFront scope: us-east-1 only). */
  private rateLimitAcl(limit: number): CfnWebACL {
    return new CfnWebACL(this, 'RateLimit', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: 'gatehouse',
        sampledRequestsEnabled: true,
      },
      rules: [
        {
          name: 'rate-per-ip',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit, aggregateKeyType: 'IP' } },
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: 'gatehouse-rate-per-ip',
            sampledRequestsEnabled: true,
          },
        },
      ],
    });
  }

  /**
   * CDK's own helper functions (BucketDeployment, auto-delete objects, log retention): their code
   * and roles come from aws-cdk-lib and cannot be changed here, so their findings are acknowledged.
   */
  private acknowledgeCdkHelpers(deployment: BucketDeployment, portalBucket: Bucket): void {
    const helpers: IConstruct[] = [deployment];
    for (const child of this.node.children) {
      if (/^Custom::(CDKBucketDeployment|S3AutoDeleteObjects)/.test(child.node.id)) helpers.push(child);
    }
    const reason = 'CDK-provided deployment helper (BucketDeployment): aws-cdk-lib defines its role';
    const portal = this.getLogicalId(portalBucket.node.defaultChild as CfnBucket);
    const qualifier = DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const wildcards = [
      ['Action::s3:GetObject*', 'it reads the staged portal zip from the CDK assets bucket'],
      ['Action::s3:GetBucket*', 'it reads the staged portal zip from the CDK assets bucket'],
      ['Action::s3:List*', 'it lists the portal bucket to prune files a new build removed'],
      ['Action::s3:DeleteObject*', 'it deletes portal files a new build removed'],
      ['Action::s3:Abort*', 'it aborts its own failed multipart uploads'],
      [
        `Resource::arn:<AWS::Partition>:s3:::cdk-${qualifier}-assets-<AWS::AccountId>-<AWS::Region>/*`,
        'the staged asset lives in the bootstrap assets bucket',
      ],
      [`Resource::<${portal}.Arn>/*`, 'it writes every portal file'],
      [
        'Resource::*',
        'CloudFront CreateInvalidation/GetInvalidation do not support resource-level permissions',
      ],
    ] as const;
    for (const helper of helpers) {
      Validations.of(helper).acknowledge(
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason: `${reason} with the basic execution policy.`,
        },
        { id: 'AwsSolutions-L1', reason: 'CDK-provided deployment helper; aws-cdk-lib pins its runtime.' },
        ...wildcards.map(([finding, why]) => ({
          id: `AwsSolutions-IAM5[${finding}]`,
          reason: `${reason}; ${why}.`,
        })),
      );
    }
  }
}
