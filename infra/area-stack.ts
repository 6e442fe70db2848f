import { CfnParameter, NestedStack, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { Route } from '../shared/routes.js';
import type { Area } from './areas.js';
import { constructId, type FunctionSettings, RouteFunctions } from './route-functions.js';
import type { MailSettings } from './settings.js';

export interface AreaStackProps {
  readonly area: Area;
  /** This area's routes (infra/areas.ts routesByArea). */
  readonly routes: readonly Route[];
  readonly projectRoot: string;
  readonly api: IHttpApi;
  readonly table: ITable;
  readonly logoBucket: IBucket;
  readonly signingKeys: ISecret;
  readonly atRestKey: ISecret;
  readonly environment: FunctionSettings;
  readonly mail?: MailSettings | undefined;
  readonly logRetention: RetentionDays;
  readonly logRemovalPolicy: RemovalPolicy;
}

/**
 * One API area in its own nested stack: the area's route functions (role, policy, log group,
 * function each) and its API routes (route, integration, Lambda permission) on the parent's
 * HTTP API. The parent's table, secret, API and CloudFront URL arrive as nested-stack parameters
 * (CDK's cross-stack references); nothing in the parent refers back, so there is no cycle.
 */
export class AreaStack extends NestedStack {
  readonly area: Area;
  readonly functions: RouteFunctions;

  constructor(scope: Construct, id: string, props: AreaStackProps) {
    // The logo bucket comes in as explicit parameters, so the cdk-nag acknowledgement of its
    // `logos/*` grant names a stable parameter (<LogoBucketArn>) rather than a generated one.
    super(scope, id, {
      description: `Gatehouse ${props.area} routes`,
      parameters: {
        LogoBucketArn: props.logoBucket.bucketArn,
        LogoBucketName: props.logoBucket.bucketName,
      },
    });
    this.area = props.area;
    const logoBucket = Bucket.fromBucketAttributes(this, 'LogoBucket', {
      bucketArn: new CfnParameter(this, 'LogoBucketArn', { type: 'String' }).valueAsString,
      bucketName: new CfnParameter(this, 'LogoBucketName', { type: 'String' }).valueAsString,
    });
    this.functions = new RouteFunctions(this, 'Functions', {
      routes: props.routes,
      projectRoot: props.projectRoot,
      table: props.table,
      logoBucket,
      signingKeys: props.signingKeys,
      atRestKey: props.atRestKey,
      environment: { ...props.environment, logoBucket: logoBucket.bucketName },
      mail: props.mail,
      logRetention: props.logRetention,
      logRemovalPolicy: props.logRemovalPolicy,
    });
    for (const route of props.routes) {
      const fn = this.functions.functions.get(route.fn)!;
      const method = HttpMethod[route.method as keyof typeof HttpMethod];
      const apiRoute = new HttpRoute(this, `${route.method}${route.path}`, {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(route.path, method),
        integration: new HttpLambdaIntegration(`${constructId(route.fn)}${route.method}Integration`, fn),
      });
      Validations.of(apiRoute).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Authorization is the service itself: OAuth 2.0 bearer tokens, client credentials and session cookies are checked in the functions (RFC 6749/6750); an API Gateway authorizer cannot express that.',
      });
    }
  }
}
