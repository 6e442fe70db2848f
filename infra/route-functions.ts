import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Config } from '../shared/config.js';
import type { Route } from '../shared/routes.js';
import { BUNDLING, FUNCTION_NODE_OPTIONS, NODE_RUNTIME_MAJOR, nodeModulesFor } from './bundling.js';
import { LOGO_PREFIX, routeStatements, type SesResources } from './grants.js';
import type { MailSettings } from './settings.js';

export const DEFAULT_MEMORY_MB = 256;
export const DEFAULT_TIMEOUT_SECONDS = 10;

/** The Lambda runtime named by infra/bundling.ts (esbuild's target follows the same number). */
const RUNTIME = (() => {
  const runtime = Runtime.ALL.find((r) => r.name === `nodejs${NODE_RUNTIME_MAJOR}.x`);
  if (!runtime) throw new Error(`aws-cdk-lib knows no Lambda runtime nodejs${NODE_RUNTIME_MAJOR}.x.`);
  return runtime;
})();

/**
 * The environment every function gets, built from the same typed fields `shared/config.ts`
 * reads, so a renamed variable breaks type-checking and test/infra instead of a cold start.
 */
export type FunctionSettings = Pick<Config, 'tableName' | 'logoBucket' | 'publicUrl'> &
  Partial<Pick<Config, 'requireEmailVerification'>>;
export function lambdaEnvironment(settings: FunctionSettings): Record<string, string> {
  return {
    IDM_TABLE_NAME: settings.tableName,
    IDM_LOGO_BUCKET: settings.logoBucket,
    IDM_PUBLIC_URL: settings.publicUrl,
    // On in AWS unless the context says otherwise (shared/config.ts: off unless "true").
    IDM_REQUIRE_EMAIL_VERIFICATION: String(settings.requireEmailVerification ?? true),
    // Stack traces point into the TypeScript sources (the bundles ship source maps).
    NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
  };
}

/** The sender and configuration set, for the functions that send mail (shared/config.ts). */
export function mailEnvironment(mail: MailSettings): Record<string, string> {
  return {
    IDM_MAIL_FROM: mail.from,
    ...(mail.configurationSet ? { IDM_SES_CONFIGURATION_SET: mail.configurationSet } : {}),
  };
}

/** The ARNs `ses:SendEmail` is granted on: the sender's identity and the configuration set. */
function sesResources(scope: Construct, mail: MailSettings): SesResources {
  const stack = Stack.of(scope);
  return {
    identityArn: stack.formatArn({ service: 'ses', resource: 'identity', resourceName: mail.identity }),
    ...(mail.configurationSet
      ? {
          configurationSetArn: stack.formatArn({
            service: 'ses',
            resource: 'configuration-set',
            resourceName: mail.configurationSet,
          }),
        }
      : {}),
  };
}

/**
 * How cdk-nag names an ARN in a finding: `<Bucket.Arn>` for the bucket's own attribute in this
 * stack, `<LogoBucketArn>` for a parameter (the logo bucket as a nested stack sees it).
 */
function nagReference(scope: Construct, arn: string): string {
  const resolved = Stack.of(scope).resolve(arn) as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  if (resolved.Ref) return `<${resolved.Ref}>`;
  if (resolved['Fn::GetAtt']) return `<${resolved['Fn::GetAtt'].join('.')}>`;
  throw new Error(`Cannot name ${JSON.stringify(resolved)} as cdk-nag does.`);
}

/** `scim-service-provider-configs` → `ScimServiceProviderConfigs` (construct ids). */
export function constructId(fn: string): string {
  return fn
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

export interface RouteFunctionsProps {
  readonly routes: readonly Route[];
  readonly projectRoot: string;
  readonly table: ITable;
  readonly logoBucket: IBucket;
  /** The signing key set: readable (and named in the environment) only where the route says so. */
  readonly signingKeys: ISecret;
  /** The at-rest key material: readable (and named in the environment) only where the route says so. */
  readonly atRestKey: ISecret;
  readonly environment: FunctionSettings;
  /** Mail sending (SES) for the routes with `mail: 'send'`; none when not configured. */
  readonly mail?: MailSettings | undefined;
  readonly logRetention: RetentionDays;
  readonly logRemovalPolicy: RemovalPolicy;
}

/**
 * One Lambda function per route-table entry (routes naming the same `fn` share it), each with its
 * own role and log group and exactly the grants the route table gives it: no managed policies,
 * no wildcard actions, no Scan.
 */
export class RouteFunctions extends Construct {
  /** Function per `fn` name. */
  readonly functions = new Map<string, NodejsFunction>();

  constructor(scope: Construct, id: string, props: RouteFunctionsProps) {
    super(scope, id);
    for (const [fn, route] of uniqueFunctions(props.routes)) {
      const entry = join(props.projectRoot, 'functions', `${fn}.ts`);
      if (!existsSync(entry))
        throw new Error(`Route ${route.method} ${route.path}: ${entry} does not exist.`);
      const name = constructId(fn);
      const logGroup = new LogGroup(this, `${name}Logs`, {
        retention: props.logRetention,
        removalPolicy: props.logRemovalPolicy,
      });
      const role = new Role(this, `${name}Role`, {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `Gatehouse ${route.method} ${route.path}: table ${route.table}, logos ${route.logos}`,
      });
      // Instead of AWSLambdaBasicExecutionRole (any log group): only this function's own.
      logGroup.grantWrite(role);
      const mail = route.mail === 'send' && props.mail ? sesResources(this, props.mail) : undefined;
      for (const statement of routeStatements(
        route,
        props.table,
        props.logoBucket,
        props.signingKeys,
        mail,
        props.atRestKey,
      )) {
        role.addToPrincipalPolicy(statement);
      }
      if (route.logos !== 'none') {
        Validations.of(role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${nagReference(this, props.logoBucket.bucketArn)}/${LOGO_PREFIX}*]`,
          reason: `Logo objects are named per application under ${LOGO_PREFIX}; the grant covers that prefix of the logo bucket only.`,
        });
      }
      const x86 = route.x86 === true;
      const nodeModules = nodeModulesFor(route);
      const fnConstruct = new NodejsFunction(this, name, {
        entry,
        handler: 'handler',
        projectRoot: props.projectRoot,
        depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
        runtime: RUNTIME,
        architecture: x86 ? Architecture.X86_64 : Architecture.ARM_64,
        memorySize: route.memory ?? DEFAULT_MEMORY_MB,
        timeout: Duration.seconds(route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS),
        role,
        logGroup,
        description: `${route.method} ${route.path}`,
        environment: {
          ...lambdaEnvironment(props.environment),
          ...(route.signingKeys ? { IDM_SIGNING_KEYS_SECRET: props.signingKeys.secretArn } : {}),
          ...(route.atRestKey ? { IDM_AT_REST_KEY_SECRET: props.atRestKey.secretArn } : {}),
          ...(mail && props.mail ? mailEnvironment(props.mail) : {}),
        },
        bundling: {
          // One definition with the benchmark (infra/bundling.ts): minified ESM, source maps,
          // the createRequire banner for CommonJS dependencies, the AWS SDK bundled.
          ...BUNDLING,
          format: OutputFormat.ESM,
          mainFields: [...BUNDLING.mainFields],
          externalModules: [...BUNDLING.externalModules],
          // The locally installed esbuild; never Docker (not available on build hosts here).
          forceDockerBundling: false,
          tsconfig: join(props.projectRoot, 'tsconfig.json'),
          ...(nodeModules.length > 0
            ? {
                // sharp loads a platform-specific binary: install it for Lambda's linux-x64.
                nodeModules,
                environment: {
                  npm_config_os: 'linux',
                  npm_config_cpu: x86 ? 'x64' : 'arm64',
                  npm_config_libc: 'glibc',
                  // Only the registry download; no audit, funding or update-check requests.
                  npm_config_audit: 'false',
                  npm_config_fund: 'false',
                  npm_config_update_notifier: 'false',
                },
              }
            : {}),
        },
      });
      Validations.of(fnConstruct).acknowledge({
        id: 'AwsSolutions-L1',
        reason: `Node.js ${NODE_RUNTIME_MAJOR} is the runtime the service is built and tested for (docs/architecture.md).`,
      });
      this.functions.set(fn, fnConstruct);
    }
  }
}

/** Groups routes by function; routes sharing a function must agree on what it may touch. */
export function uniqueFunctions(routes: readonly Route[]): Map<string, Route> {
  const out = new Map<string, Route>();
  for (const route of routes) {
    const seen = out.get(route.fn);
    if (!seen) out.set(route.fn, route);
    else if (
      seen.table !== route.table ||
      seen.logos !== route.logos ||
      seen.memory !== route.memory ||
      seen.timeoutSeconds !== route.timeoutSeconds ||
      seen.x86 !== route.x86 ||
      seen.signingKeys !== route.signingKeys ||
      seen.atRestKey !== route.atRestKey ||
      seen.mail !== route.mail
    ) {
      throw new Error(
        `Routes ${seen.method} ${seen.path} and ${route.method} ${route.path} share function ${route.fn} but differ in access or sizing.`,
      );
    }
  }
  return out;
}
