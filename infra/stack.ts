import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { Route } from '../shared/routes.js';
import { GatehouseApi } from './api.js';
import { AreaStack } from './area-stack.js';
import { type Area, areaStackId, routesByArea } from './areas.js';
import { GatehouseCdn } from './cdn.js';
import { GatehouseData } from './data.js';
import { PortalFiles } from './portal-files.js';
import { readSettings } from './settings.js';

// The tests import these from the stack module.
export { apiPathPatterns, SPA_REWRITE } from './cdn.js';

export interface GatehouseStackProps extends StackProps {
  /** The route table (shared/routes.ts); tests may pass their own. */
  readonly routes: readonly Route[];
  /** Repository root: functions/, package-lock.json and tsconfig.json live here. */
  readonly projectRoot: string;
  /** The built portal (portal/dist). */
  readonly portalDir: string;
}

/**
 * The whole service: table, buckets, HTTP API, CloudFront here; one Lambda per route, with its
 * API routes, in one nested stack per API area (infra/areas.ts), so no template nears
 * CloudFormation's 500 resources as the route table grows (docs/decisions.md).
 *
 * The stateful parts are constructs for reading's sake only: each creates its resources in this
 * stack's scope, so the logical IDs (and the deployed table and buckets) stay what they were. The
 * order matters: the API exists before CloudFront (its origin) and the area stacks (whose
 * functions get CloudFront's URL and whose routes attach to the API), so there is no cycle.
 */
export class GatehouseStack extends Stack {
  readonly api: HttpApi;
  readonly table: Table;
  readonly distribution: Distribution;
  /** Every route function by `fn` name, whichever area's nested stack holds it. */
  readonly functions: { readonly functions: ReadonlyMap<string, NodejsFunction> };
  /** The nested stack per non-empty API area (infra/areas.ts). */
  readonly areas = new Map<Area, AreaStack>();

  constructor(scope: Construct, id: string, props: GatehouseStackProps) {
    super(scope, id, props);
    const settings = readSettings(this.node);
    const removalPolicy = settings.removal === 'destroy' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    const logRetention = settings.logRetentionDays as RetentionDays;

    const data = new GatehouseData(this, 'DataGroup', {
      removalPolicy,
      logRetentionDays: settings.logRetentionDays,
    });
    const http = new GatehouseApi(this, 'ApiGroup', {
      throttleRate: settings.throttleRate,
      throttleBurst: settings.throttleBurst,
      logRetention,
      removalPolicy,
    });
    const cdn = new GatehouseCdn(this, 'CdnGroup', {
      routes: props.routes,
      apiDomain: http.domainName,
      portalBucket: data.portalBucket,
      logoBucket: data.logoBucket,
      accessLogs: data.accessLogs,
      settings,
    });
    const environment = {
      tableName: data.table.tableName,
      logoBucket: data.logoBucket.bucketName,
      publicUrl: cdn.publicUrl,
      requireEmailVerification: settings.requireEmailVerification,
    };
    const functions = new Map<string, NodejsFunction>();
    for (const [area, routes] of routesByArea(props.routes)) {
      const nested = new AreaStack(this, areaStackId(area), {
        area,
        routes,
        projectRoot: props.projectRoot,
        api: http.api,
        table: data.table,
        logoBucket: data.logoBucket,
        signingKeys: data.signingKeys,
        atRestKey: data.atRestKey,
        environment,
        mail: settings.mail,
        logRetention,
        logRemovalPolicy: removalPolicy,
      });
      this.areas.set(area, nested);
      for (const [fn, construct] of nested.functions.functions) functions.set(fn, construct);
    }
    this.functions = { functions };
    new PortalFiles(this, 'PortalFilesGroup', {
      portalDir: props.portalDir,
      portalBucket: data.portalBucket,
      distribution: cdn.distribution,
    });

    this.api = http.api;
    this.table = data.table;
    this.distribution = cdn.distribution;
    this.addOutputs(cdn.publicUrl, http, data);
  }

  private addOutputs(publicUrl: string, http: GatehouseApi, data: GatehouseData): void {
    new CfnOutput(this, 'PortalUrl', { value: publicUrl, description: 'The portal and OAuth issuer URL' });
    new CfnOutput(this, 'ApiUrl', {
      value: http.stage.url,
      description: 'The HTTP API endpoint (CloudFront forwards the API paths here)',
    });
    new CfnOutput(this, 'TableName', {
      value: data.table.tableName,
      description: 'IDM_TABLE_NAME for `npx idm` against this deployment',
    });
    new CfnOutput(this, 'LogoBucketName', {
      value: data.logoBucket.bucketName,
      description: 'IDM_LOGO_BUCKET',
    });
    new CfnOutput(this, 'SigningKeysSecretArn', {
      value: data.signingKeys.secretArn,
      description: 'IDM_SIGNING_KEYS_SECRET for `npx idm keys rotate` against this deployment',
    });
    new CfnOutput(this, 'AtRestKeySecretArn', {
      value: data.atRestKey.secretArn,
      description: 'IDM_AT_REST_KEY_SECRET for `npx idm import keyrock` into this deployment',
    });
  }
}
