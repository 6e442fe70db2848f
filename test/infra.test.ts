/**
 * The deployable stack, synthesized once with real esbuild bundling (as `npm run synth` does) and
 * read resource by resource: every route has its function and every function its route, each
 * function may touch exactly what its route-table entry says, storage is private and encrypted,
 * CloudFront sends the API paths to the API, cdk-nag's AwsSolutions pack passes. The functions
 * live in one nested stack per API area: `synth.template` reads parent and nested templates as
 * one (nested parameters replaced by the parent's values), `synth.templates` each on its own.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Area, areaOf, routesByArea } from '../infra/areas.js';
import { nodeModulesFor } from '../infra/bundling.js';
import { lambdaEnvironment, uniqueFunctions } from '../infra/route-functions.js';
import { apiPathPatterns } from '../infra/stack.js';
import { type Synthesized, synthesize } from '../infra/synth.js';
import { readConfig } from '../shared/config.js';
import { type Route, routes } from '../shared/routes.js';
import { TABLE_SCHEMA } from '../shared/store/table.js';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
type Json = any;

let synth: Synthesized;
let resources: Record<string, Json>;
let synthSeconds = 0;

beforeAll(() => {
  const started = Date.now();
  synth = synthesize();
  synthSeconds = (Date.now() - started) / 1000;
  resources = synth.template.toJSON().Resources;
}, 300_000);

function ofType(type: string): [string, Json][] {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}
function logicalId(construct: IConstruct): string {
  return Stack.of(construct).getLogicalId(construct.node.defaultChild as never);
}
function functionId(fn: string): string {
  return logicalId(synth.stack.functions.functions.get(fn)!);
}
/** Every statement of every inline policy attached to a role. */
function roleStatements(roleId: string): Json[] {
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}
function actions(statements: Json[], prefix: string): string[] {
  return [
    ...new Set(
      statements.flatMap((s) => [s.Action].flat()).filter((a: string) => a.startsWith(`${prefix}:`)),
    ),
  ].sort();
}

describe('functions and routes come from the route table', () => {
  it('synthesizes with real bundles in reasonable time', () => {
    console.log(`infra synth with bundling: ${synthSeconds.toFixed(1)} s for ${routes.length} routes`);
    expect(synthSeconds).toBeLessThan(240);
  });

  it('has a function for every route and a route for every function', () => {
    const routeKeys = new Map<string, string>();
    for (const [, route] of ofType('AWS::ApiGatewayV2::Route')) {
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref;
      const uri = resources[integrationId].Properties.IntegrationUri;
      routeKeys.set(route.Properties.RouteKey, uri['Fn::GetAtt'][0]);
    }
    expect([...routeKeys.keys()].sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of routes) {
      expect(routeKeys.get(`${route.method} ${route.path}`), route.path).toBe(functionId(route.fn));
    }
    const routed = new Set(routeKeys.values());
    const fns = new Set(routes.map((r) => r.fn));
    expect(synth.stack.functions.functions.size).toBe(fns.size);
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      // Only CDK's own deployment helpers may exist beside the route functions.
      if (/^Custom(CDKBucketDeployment|S3AutoDeleteObjects)/.test(id)) continue;
      expect(routed.has(id), `${id} (${fn.Properties.Description}) has no route`).toBe(true);
    }
  });

  it('builds each function for Node.js 22, arm64 unless the route needs x86, sized by the route', () => {
    for (const [fn, route] of uniqueFunctions(routes)) {
      const props = resources[functionId(fn)].Properties;
      expect(props.Runtime).toBe('nodejs22.x');
      expect(props.Handler).toBe('index.handler');
      expect(props.Architectures).toEqual([route.x86 ? 'x86_64' : 'arm64']);
      expect(props.MemorySize).toBe(route.memory ?? 256);
      expect(props.Timeout).toBe(route.timeoutSeconds ?? 10);
      expect(props.LoggingConfig.LogGroup).toEqual({ Ref: expect.any(String) });
      const logGroup = resources[props.LoggingConfig.LogGroup.Ref];
      expect(logGroup.Properties.RetentionInDays).toBe(30);
      expect(Object.keys(props.Environment.Variables).sort()).toEqual([
        // Only where the function enrols or checks authenticator-app codes, or uses jwt secrets.
        ...(route.atRestKey ? ['IDM_AT_REST_KEY_SECRET'] : []),
        'IDM_LOGO_BUCKET',
        'IDM_PUBLIC_URL',
        'IDM_REQUIRE_EMAIL_VERIFICATION',
        // Only where the function signs or publishes keys (checked with the grants below).
        ...(route.signingKeys ? ['IDM_SIGNING_KEYS_SECRET'] : []),
        'IDM_TABLE_NAME',
        'NODE_OPTIONS',
      ]);
      expect(props.Environment.Variables.IDM_TABLE_NAME).toEqual({ Ref: logicalId(synth.stack.table) });
      expect(props.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
      // On by default in AWS (docs/decisions.md).
      expect(props.Environment.Variables.IDM_REQUIRE_EMAIL_VERIFICATION).toBe('true');
      // The issuer is CloudFront's URL, not the API's execute-api host.
      expect(JSON.stringify(props.Environment.Variables.IDM_PUBLIC_URL)).toContain(
        logicalId(synth.stack.distribution),
      );
    }
  });

  it('ships real ESM bundles with source maps, and sharp for linux-x64 where needed', () => {
    for (const [fn, route] of uniqueFunctions(routes)) {
      const key: string = resources[functionId(fn)].Properties.Code.S3Key;
      const dir = join(synth.outdir, `asset.${key.replace(/\.zip$/, '')}`);
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(code.startsWith("import { createRequire } from 'module';"), fn).toBe(true);
      expect(code).toMatch(/export\s*\{[^}]*\bhandler\b/);
      expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);
      if (route.x86) {
        for (const mod of nodeModulesFor(route))
          expect(existsSync(join(dir, 'node_modules', mod))).toBe(true);
        const img = readdirSync(join(dir, 'node_modules', '@img'));
        expect(img).toContain('sharp-linux-x64');
        expect(img.filter((name) => /arm64|darwin|win32/.test(name))).toEqual([]);
      } else {
        expect(existsSync(join(dir, 'node_modules'))).toBe(false);
      }
    }
  });

  it('gives functions the environment shared/config.ts reads', () => {
    const env = lambdaEnvironment({ tableName: 't', logoBucket: 'b', publicUrl: 'https://idm.example.com' });
    const config = readConfig(env);
    expect([config.tableName, config.logoBucket, config.publicUrl, config.requireEmailVerification]).toEqual([
      't',
      'b',
      'https://idm.example.com',
      true,
    ]);
    const off = lambdaEnvironment({
      tableName: 't',
      logoBucket: 'b',
      publicUrl: '',
      requireEmailVerification: false,
    });
    expect(readConfig(off).requireEmailVerification).toBe(false);
  });
});

describe('nested stacks per API area stay well under CloudFormation’s 500 resources', () => {
  it('keeps every template, parent and nested, under 450 resources', () => {
    const counts = [...synth.templates].map(
      ([id, template]) => [id, Object.keys(template.toJSON().Resources).length] as const,
    );
    console.log(`resources per template: ${counts.map(([id, n]) => `${id} ${n}`).join(', ')}`);
    expect(counts.length).toBe(1 + routesByArea(routes).size);
    for (const [id, count] of counts) expect(count, id).toBeLessThan(450);
  });

  it('puts each route, its function and its permission in the area stack of its function', () => {
    const areaOfFn = new Map<string, Area>();
    for (const [area, inArea] of routesByArea(routes)) {
      for (const route of inArea) areaOfFn.set(route.fn, area);
    }
    for (const route of routes) {
      const fn = synth.stack.functions.functions.get(route.fn)!;
      const area = synth.stack.areas.get(areaOfFn.get(route.fn)!)!;
      expect(Stack.of(fn), route.path).toBe(area);
      // The function's area is its first route's (a function serves all its routes from one stack).
      expect(area.area, route.fn).toBe(areaOf(routes.find((r) => r.fn === route.fn)!));
      const nested = synth.templates.get(area.node.id)!.toJSON().Resources as Record<string, Json>;
      const apiRoute = Object.values(nested).find(
        (r) =>
          r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === `${route.method} ${route.path}`,
      );
      expect(apiRoute, `${route.method} ${route.path}`).toBeDefined();
    }
    for (const [, template] of synth.templates) {
      const own = template.toJSON().Resources as Record<string, Json>;
      for (const permission of Object.values(own).filter((r) => r.Type === 'AWS::Lambda::Permission')) {
        // Each invoke permission sits beside the function it names (no cross-stack function ARNs).
        const target = permission.Properties.FunctionName['Fn::GetAtt']?.[0];
        if (target) expect(own[target]?.Type).toBe('AWS::Lambda::Function');
      }
    }
    // The parent keeps the stateful resources and holds no route function.
    const parent = synth.templates.get(synth.stack.node.id)!.toJSON().Resources as Record<string, Json>;
    expect(Object.keys(parent)).toContain(logicalId(synth.stack.table));
    expect(Object.values(parent).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')).toEqual([]);
  });

  it('groups paths into the areas docs/decisions.md names', () => {
    expect(areaOf({ path: '/oauth2/token' })).toBe('oauth');
    expect(areaOf({ path: '/.well-known/jwks.json' })).toBe('oauth');
    expect(areaOf({ path: '/v2/Users' })).toBe('oauth');
    expect(areaOf({ path: '/users/{id}' })).toBe('oauth');
    expect(areaOf({ path: '/api/applications' })).toBe('portal-apps');
    expect(areaOf({ path: '/api/applications/{id}/pep-proxy' })).toBe('portal-apps');
    expect(areaOf({ path: '/api/session' })).toBe('portal');
    expect(areaOf({ path: '/api/applicationsx' })).toBe('portal');
    expect(areaOf({ path: '/v1/auth/tokens' })).toBe('keyrock');
    expect(areaOf({ path: '/v1/applications' })).toBe('keyrock-apps');
    expect(areaOf({ path: '/v1/applications/{id}/roles' })).toBe('keyrock-apps');
    expect(areaOf({ path: '/v1/applicationsx' })).toBe('keyrock');
    expect(areaOf({ path: '/apix' })).toBe('oauth');
  });
});

// Written out here, not imported from infra/, so a widened grant there fails this test.
const READ = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'];
const EXPECTED_TABLE_ACTIONS = {
  none: [],
  read: READ,
  write: [
    ...READ,
    'dynamodb:BatchWriteItem',
    'dynamodb:ConditionCheckItem',
    'dynamodb:DeleteItem',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
  ].sort(),
};
const EXPECTED_LOGO_ACTIONS = { none: [], read: ['s3:GetObject'], write: ['s3:GetObject', 's3:PutObject'] };

describe('IAM follows the route table', () => {
  it('grants each function exactly its table and logo access, on named resources, no wildcards', () => {
    const table = logicalId(synth.stack.table);
    for (const [fn, route] of uniqueFunctions(routes)) {
      const roleId = resources[functionId(fn)].Properties.Role['Fn::GetAtt'][0];
      expect(resources[roleId].Properties.ManagedPolicyArns, fn).toBeUndefined();
      const statements = roleStatements(roleId);
      for (const s of statements) {
        expect(s.Effect).toBe('Allow');
        for (const action of [s.Action].flat()) expect(action, fn).not.toContain('*');
      }
      expect(actions(statements, 'dynamodb'), fn).toEqual(EXPECTED_TABLE_ACTIONS[route.table]);
      expect(actions(statements, 's3'), fn).toEqual(EXPECTED_LOGO_ACTIONS[route.logos]);
      expect(actions(statements, 'logs'), fn).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      // No sender configured in this synthesis (mailFrom): nobody may send mail.
      expect(actions(statements, 'ses'), fn).toEqual([]);
      if (route.table === 'read') {
        for (const write of ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']) {
          expect(actions(statements, 'dynamodb'), fn).not.toContain(`dynamodb:${write}`);
        }
      }
      for (const s of statements.filter((st) => [st.Action].flat()[0].startsWith('dynamodb:'))) {
        expect(s.Resource).toEqual([
          { 'Fn::GetAtt': [table, 'Arn'] },
          ...TABLE_SCHEMA.indexes.map((index) => ({
            'Fn::Join': ['', [{ 'Fn::GetAtt': [table, 'Arn'] }, `/index/${index.name}`]],
          })),
        ]);
      }
      for (const s of statements.filter((st) => [st.Action].flat()[0].startsWith('s3:'))) {
        expect(JSON.stringify(s.Resource)).toContain('/logos/*');
      }
    }
  });

  it('lets only logo-writing routes write the logo bucket', () => {
    const writers = routes.filter((r) => r.logos === 'write').map((r) => r.fn);
    expect(writers.length).toBeGreaterThan(0);
    for (const [fn] of uniqueFunctions(routes)) {
      const roleId = resources[functionId(fn)].Properties.Role['Fn::GetAtt'][0];
      const canPut = actions(roleStatements(roleId), 's3').includes('s3:PutObject');
      expect(canPut, fn).toBe(writers.includes(fn));
    }
  });

  it('lets only the functions that sign or publish keys read the signing-key secret, and name it', () => {
    const secrets = ofType('AWS::SecretsManager::Secret') as [string, Json][];
    expect(secrets).toHaveLength(2);
    const [secretId, secret] = secrets.find(([, s]) => /signing keys/.test(s.Properties.Description))!;
    expect(secret.Properties.SecretString).toBeUndefined();
    const readers = routes.filter((r) => r.signingKeys === 'read').map((r) => r.fn);
    expect(readers).toEqual(expect.arrayContaining(['oauth2-token', 'oidc-jwks']));
    for (const [fn] of uniqueFunctions(routes)) {
      const roleId = resources[functionId(fn)].Properties.Role['Fn::GetAtt'][0];
      const statements = roleStatements(roleId);
      const env = resources[functionId(fn)].Properties.Environment.Variables;
      if (readers.includes(fn)) {
        const grants = statements.filter((s) => [s.Resource].flat()[0]?.Ref === secretId);
        expect(grants.flatMap((s) => [s.Action].flat()).sort(), fn).toEqual([
          'secretsmanager:GetSecretValue',
          'secretsmanager:PutSecretValue',
        ]);
        expect(env.IDM_SIGNING_KEYS_SECRET, fn).toEqual({ Ref: secretId });
      } else {
        expect(JSON.stringify(statements), fn).not.toContain(secretId);
        expect(env.IDM_SIGNING_KEYS_SECRET, fn).toBeUndefined();
      }
    }
  });

  it('lets only the functions that enrol or check authenticator apps, or use Keyrock jwt secrets, read the at-rest key, read-only', () => {
    const secrets = ofType('AWS::SecretsManager::Secret') as [string, Json][];
    const [keyId, key] = secrets.find(([, s]) => /authenticator-app/.test(s.Properties.Description))!;
    // CloudFormation generates the value: no literal in the template, and it outlives the stack.
    expect(key.Properties.SecretString).toBeUndefined();
    expect(key.Properties.GenerateSecretString.PasswordLength).toBe(64);
    expect(key.DeletionPolicy).toBe('Retain');
    const readers = [...uniqueFunctions(routes)].filter(([, r]) => r.atRestKey === 'read').map(([fn]) => fn);
    expect(readers.sort()).toEqual([
      // Keyrock jwt secrets: shown, sealed, signed with, verified with (docs/decisions.md).
      'api-application-get',
      'api-application-update',
      'api-session-verify',
      'api-totp-confirm',
      'api-totp-start',
      'oauth2-authorize',
      'oauth2-authorize-decision',
      'oauth2-token',
      'user-info',
      'v1-application-get',
      'v1-application-update',
      'v1-applications-create',
      'v1-auth-tokens-create',
    ]);
    for (const [fn] of uniqueFunctions(routes)) {
      const roleId = resources[functionId(fn)].Properties.Role['Fn::GetAtt'][0];
      const statements = roleStatements(roleId);
      const env = resources[functionId(fn)].Properties.Environment.Variables;
      const grants = statements.filter((s) => [s.Resource].flat()[0]?.Ref === keyId);
      if (readers.includes(fn)) {
        expect(
          grants.flatMap((s) => [s.Action].flat()),
          fn,
        ).toEqual(['secretsmanager:GetSecretValue']);
        expect(env.IDM_AT_REST_KEY_SECRET, fn).toEqual({ Ref: keyId });
      } else {
        expect(grants, fn).toEqual([]);
        expect(env.IDM_AT_REST_KEY_SECRET, fn).toBeUndefined();
      }
    }
  });
});

describe('storage', () => {
  it('keeps every bucket private, encrypted and TLS-only', () => {
    const buckets = ofType('AWS::S3::Bucket');
    expect(buckets.length).toBe(3);
    const policies = ofType('AWS::S3::BucketPolicy');
    for (const [id, bucket] of buckets) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(
        bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault
          .SSEAlgorithm,
      ).toBe('AES256');
      const policy = policies.find(([, p]) => p.Properties.Bucket.Ref === id);
      expect(policy, id).toBeDefined();
      const statements: Json[] = policy![1].Properties.PolicyDocument.Statement;
      expect(statements).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
      for (const s of statements.filter((st) => st.Effect === 'Allow')) {
        // Only AWS services (CloudFront with OAC, S3 log delivery) are allowed in; never "*".
        expect(s.Principal, id).toEqual({ Service: expect.stringMatching(/\.amazonaws\.com$/) });
        expect(s.Condition, id).toBeDefined();
      }
    }
  });

  it('defines the table from TABLE_SCHEMA: on-demand, PITR, TTL, GSI, protected and retained', () => {
    synth.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        DeletionProtectionEnabled: true,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true },
        KeySchema: [
          { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE_SCHEMA.indexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      },
    });
    synth.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    // The logo bucket and the logs are user data too.
    const logos = logicalId(synth.stack.node.findChild('Logos'));
    expect(resources[logos].DeletionPolicy).toBe('Retain');
  });
});

describe('HTTP API and CloudFront', () => {
  it('throttles the API stage and writes JSON access logs', () => {
    const [[, stage]] = ofType('AWS::ApiGatewayV2::Stage') as [[string, Json]];
    expect(stage.Properties.StageName).toBe('$default');
    expect(stage.Properties.DefaultRouteSettings).toEqual({
      ThrottlingBurstLimit: 200,
      ThrottlingRateLimit: 100,
    });
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
    expect(stage.Properties.AccessLogSettings.DestinationArn).toEqual({
      'Fn::GetAtt': [expect.any(String), 'Arn'],
    });
  });

  it('serves the portal and logos through OAC and sends every API path to the API uncached', () => {
    const [[, dist]] = ofType('AWS::CloudFront::Distribution') as [[string, Json]];
    const config = dist.Properties.DistributionConfig;
    const origins = new Map<string, Json>(config.Origins.map((o: Json) => [o.Id, o]));
    const bucketOf = (originId: string) => origins.get(originId).DomainName['Fn::GetAtt'][0];
    expect(ofType('AWS::CloudFront::OriginAccessControl').length).toBe(2);

    const portal = logicalId(synth.stack.node.findChild('Portal'));
    const logos = logicalId(synth.stack.node.findChild('Logos'));
    const def = config.DefaultCacheBehavior;
    expect(bucketOf(def.TargetOriginId)).toBe(portal);
    expect(origins.get(def.TargetOriginId).OriginAccessControlId).toBeDefined();
    expect(origins.get(def.TargetOriginId).S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    expect(def.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(def.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
    expect(config.DefaultRootObject).toBe('index.html');

    const behaviors = new Map<string, Json>(config.CacheBehaviors.map((b: Json) => [b.PathPattern, b]));
    const logoBehavior = behaviors.get('/logos/*');
    expect(bucketOf(logoBehavior.TargetOriginId)).toBe(logos);
    expect(origins.get(logoBehavior.TargetOriginId).OriginAccessControlId).toBeDefined();

    const patterns = apiPathPatterns(routes);
    // The issue's list; each is present once the route table has a route under it.
    for (const expected of [
      '/oauth2/*',
      '/user',
      '/users/*',
      '/applications.json',
      '/v2/*',
      '/api/*',
      '/.well-known/*',
    ]) {
      const prefix = expected.replace('/*', '/');
      if (routes.some((r) => r.path === expected || r.path.startsWith(prefix))) {
        expect(patterns).toContain(expected);
      }
    }
    expect([...behaviors.keys()].sort()).toEqual(['/logos/*', ...patterns].sort());
    const api = logicalId(synth.stack.api);
    for (const pattern of patterns) {
      const b = behaviors.get(pattern);
      expect(b.CachePolicyId, pattern).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
      expect(b.OriginRequestPolicyId).toBe(
        OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
      );
      expect(b.ViewerProtocolPolicy).toBe('https-only');
      expect(b.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
      expect(b.ResponseHeadersPolicyId).toBeDefined();
      const origin = origins.get(b.TargetOriginId);
      expect(origin.CustomOriginConfig).toMatchObject({
        OriginProtocolPolicy: 'https-only',
        OriginSSLProtocols: ['TLSv1.2'],
      });
      expect(JSON.stringify(origin.DomainName)).toContain(`"${api}","ApiEndpoint"`);
    }
  });

  it('adds security headers without overriding the API’s own CSP', () => {
    synth.template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: Match.objectLike({ Override: false }),
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 31_536_000, Override: true }),
        }),
      },
    });
  });

  it('outputs the portal URL, the API URL and the table name', () => {
    const outputs = synth.template.toJSON().Outputs;
    expect(Object.keys(outputs)).toEqual(
      expect.arrayContaining([
        'PortalUrl',
        'ApiUrl',
        'TableName',
        'SigningKeysSecretArn',
        'AtRestKeySecretArn',
      ]),
    );
    // What `idm import keyrock` needs to seal jwt secrets with the deployment's own key.
    expect(outputs.AtRestKeySecretArn.Value).toEqual({ Ref: expect.stringMatching(/^AtRestKey/) });
    expect(outputs.TableName.Value).toEqual({ Ref: logicalId(synth.stack.table) });
  });
});

describe('template hygiene', () => {
  it('passes cdk-nag AwsSolutions, every acknowledgement with a reason', () => {
    const report = new AwsSolutionsChecks().validateScope(synth.app);
    const findings = report.violations.flatMap((v) =>
      v.violatingResources.map((r) => `${v.ruleName} ${r.resourceLogicalId}: ${v.description}`),
    );
    expect(findings).toEqual([]);
    const acknowledged: Json[] = [];
    const walk = (c: IConstruct) => {
      for (const entry of c.node.metadata) {
        if (entry.type === 'aws:cdk:acknowledged-rules') acknowledged.push(entry.data);
      }
      for (const child of c.node.children) walk(child);
    };
    walk(synth.app);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const ack of acknowledged) {
      for (const [id, reason] of Object.entries(ack)) {
        // CDK acknowledges some of its own CloudFormation-Validate rules; ours are AwsSolutions.
        if (id.includes('AwsSolutions-')) expect(String(reason).length, id).toBeGreaterThan(30);
      }
    }
  });

  it('holds no secret literal', () => {
    const text = JSON.stringify(synth.template.toJSON());
    expect(secretLiterals(text)).toEqual([]);
    // The scanner itself must be able to fail.
    expect(
      secretLiterals('{"Environment":{"CLIENT_SECRET":"hunter2hunter2"},"k":"AKIAABCDEFGHIJKLMNOP"}').length,
    ).toBe(2);
  });

  it('has no dependency cycle (CloudFront → API, functions → CloudFront URL)', () => {
    expect(findCycle(resources)).toBeUndefined();
  });

  it('refuses a route whose function file does not exist', () => {
    const ghost: Route = {
      method: 'GET',
      path: '/v2/Ghost',
      fn: 'no-such-function',
      auth: 'none',
      table: 'read',
      logos: 'none',
    };
    expect(() => synthesize({ routes: [ghost], bundle: false })).toThrow(
      /no-such-function\.ts does not exist/,
    );
  });
});

/** String values that look like credentials: AWS keys, PEM keys, bcrypt hashes, secret-named literals. */
function secretLiterals(text: string): string[] {
  const patterns = [
    /AKIA[0-9A-Z]{16}/g,
    /-----BEGIN [A-Z ]*PRIVATE KEY-----/g,
    /\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}/g,
    /"[A-Za-z_]*(?:SECRET|PASSWORD|PASSWD|TOKEN|PRIVATE_KEY|API_KEY)[A-Za-z_]*"\s*:\s*"[^"]+"/gi,
  ];
  return patterns.flatMap((p) => text.match(p) ?? []);
}

/** A cycle among Ref / Fn::GetAtt / DependsOn edges, which CloudFormation would refuse. */
function findCycle(all: Record<string, Json>): string[] | undefined {
  const edges = new Map<string, Set<string>>();
  const collect = (node: Json, out: Set<string>) => {
    if (Array.isArray(node)) for (const n of node) collect(n, out);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === 'Ref' && typeof v === 'string' && v in all) out.add(v);
        else if (k === 'Fn::GetAtt' && Array.isArray(v) && v[0] in all) out.add(v[0]);
        else collect(v, out);
      }
    }
  };
  for (const [id, r] of Object.entries(all)) {
    const out = new Set<string>([r.DependsOn ?? []].flat());
    collect(r.Properties ?? {}, out);
    edges.set(id, out);
  }
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string, path: string[]): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return [...path, id];
    state.set(id, 'open');
    for (const next of edges.get(id) ?? []) {
      const cycle = visit(next, [...path, id]);
      if (cycle) return cycle;
    }
    state.set(id, 'done');
    return undefined;
  };
  for (const id of edges.keys()) {
    const cycle = visit(id, []);
    if (cycle) return cycle;
  }
  return undefined;
}
