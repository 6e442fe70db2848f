/**
 * `npx idm`: the admin CLI, for bootstrapping a deployed stack and for scripted set-up. Each
 * command calls the same domain and store functions the endpoints use, prints one JSON object on
 * stdout, or one line on stderr and a non-zero exit (2: bad input, 1: refused or failed).
 * Where it acts: see cli/target.ts.
 */
import { StartupError } from '../local/emulators.js';
import { LOCAL } from '../local/runtime.js';
import { config } from '../shared/config.js';
import { registerUser } from '../shared/domain/accounts.js';
import { registerApplication } from '../shared/domain/applications.js';
import { addPermission, addRole, switchPermission } from '../shared/domain/catalogue.js';
import { newOrganization, putMember } from '../shared/domain/organizations.js';
import { addGrantee, userOwner } from '../shared/domain/portal-views.js';
import { setAdministrator } from '../shared/domain/user-admin.js';
import { applicationFields, memberRole } from '../shared/domain/validate.js';
import { AppError } from '../shared/errors.js';
import { SIGNING_ALGS, type SigningAlg } from '../shared/model.js';
import { listKeys, rotateKeys } from '../shared/oidc/keys.js';
import type { Db } from '../shared/store/db.js';
import { rebuildDirectory } from '../shared/store/directory.js';
import { rebuildSummaries } from '../shared/store/migrate.js';
import { type FlagSpecs, type Flags, parseFlags, UsageError } from './args.js';
import { eventFor, invoke, routeOf } from './invoke.js';
import { importKeyrock } from './keyrock-import.js';
import { openTarget } from './target.js';

interface Command<S extends FlagSpecs> {
  usage: string;
  flags: S;
  positionals?: number;
  /** Input field (as validate.ts names it) → the flag that carries it, for error messages. */
  fields?: Record<string, string>;
  /** Whether the command may touch the logo bucket (only `invoke` of a route that does). */
  needsS3?: (args: string[]) => boolean;
  /** `false`: the command does not touch the table, so none is opened (no DynamoDB Local start). */
  table?: false;
  run(db: Db, flags: Flags<S>, args: string[]): Promise<unknown>;
}

/** What a command that opens no table gets instead of one: any use is a programming error. */
const NO_TABLE = new Proxy({} as Db, {
  get() {
    throw new Error('This command opened no table.');
  },
});

const command = <S extends FlagSpecs>(c: Command<S>) => c as unknown as Command<FlagSpecs>;

const COMMANDS: Record<string, Command<FlagSpecs>> = {
  'user create': command({
    usage:
      "user create --email a@example.com --password 'secret' [--name 'Alice'] [--nick alice] [--admin] [--keyrock-id <Keyrock's id>]",
    flags: {
      email: { kind: 'string', required: true },
      password: { kind: 'string', required: true },
      name: { kind: 'string' },
      nick: { kind: 'string' },
      admin: { kind: 'bool' },
      'keyrock-id': { kind: 'string' },
    },
    fields: { displayName: 'name', nickName: 'nick' },
    async run(db, f) {
      const user = await registerUser(
        db,
        {
          email: f.email,
          password: f.password,
          displayName: f.name,
          nickName: f.nick,
          admin: f.admin,
          keyrockId: f['keyrock-id'],
        },
        config().bcryptCost,
      );
      return {
        id: user.id,
        actorId: user.actorId,
        email: user.email,
        displayName: user.displayName,
        nickName: user.nickName,
        admin: user.admin === true,
      };
    },
  }),

  // Moving from Keyrock: its MySQL database into this table (cli/keyrock-import.ts).
  'import keyrock': command({
    usage:
      'import keyrock --from mysql://user:pass@host:3306/idm [--images <Keyrock public/img/applications>] [--dry-run]',
    flags: {
      from: { kind: 'string', required: true },
      images: { kind: 'string' },
      'dry-run': { kind: 'bool' },
    },
    // Application images become logos in the logo bucket.
    needsS3: (args) => args.includes('--images'),
    run: (db, f) => importKeyrock(db, { from: f.from, images: f.images, dryRun: f['dry-run'] === true }),
  }),

  // An administrator manages every user through Keyrock's /v1 API; only this CLI grants it.
  'user set-admin': command({
    usage: 'user set-admin --user <userId> [--off]',
    flags: { user: { kind: 'id', required: true }, off: { kind: 'bool' } },
    async run(db, f) {
      const user = await setAdministrator(db, f.user, !f.off);
      return { id: user.id, email: user.email, admin: user.admin === true };
    },
  }),

  'app create': command({
    usage:
      'app create --owner <userId> --name N --description D --url U --callback C [--grant-types authorization_code,implicit,password,client_credentials,refresh_token] [--access-token-format opaque|jwt] [--post-logout-uri U]...',
    flags: {
      owner: { kind: 'id', required: true },
      name: { kind: 'string', required: true },
      description: { kind: 'string', required: true },
      url: { kind: 'string', required: true },
      callback: { kind: 'string', required: true },
      'grant-types': { kind: 'string' },
      'access-token-format': { kind: 'string' },
      // RP-Initiated Logout 1.0 §3; repeat the flag for several (Keyrock's redirect_sign_out_uri is one).
      'post-logout-uri': { kind: 'list' },
    },
    fields: {
      callbackUrl: 'callback',
      grantTypes: 'grant-types',
      accessTokenFormat: 'access-token-format',
      postLogoutRedirectUris: 'post-logout-uri',
    },
    async run(db, f) {
      const input = {
        name: f.name,
        description: f.description,
        url: f.url,
        callbackUrl: f.callback,
        grantTypes: f['grant-types'],
        accessTokenFormat: f['access-token-format'],
        postLogoutRedirectUris: f['post-logout-uri'],
      };
      applicationFields(input); // bad input is reported before any read or write
      // The store gives the owner the Provider role in the same transaction.
      const { app, roles, clientSecret } = await registerApplication(db, await userOwner(db, f.owner), input);
      return {
        id: app.id,
        clientId: app.clientId,
        clientSecret,
        name: app.name,
        description: app.description,
        url: app.url,
        callbackUrl: app.callbackUrl,
        accessTokenFormat: app.accessTokenFormat,
        postLogoutRedirectUris: app.postLogoutRedirectUris,
        roles: roles.map((r) => ({ id: r.id, name: r.name })),
      };
    },
  }),

  'org create': command({
    usage: 'org create --owner <userId> --name N [--description D]',
    flags: {
      owner: { kind: 'id', required: true },
      name: { kind: 'string', required: true },
      description: { kind: 'string' },
    },
    async run(db, f) {
      const org = await newOrganization(db, f.owner, { name: f.name, description: f.description });
      return { id: org.id, actorId: org.actorId, name: org.name, description: org.description };
    },
  }),

  'org add-member': command({
    usage: 'org add-member --org <orgId> --user <userId> [--role member|owner]',
    flags: {
      org: { kind: 'id', required: true },
      user: { kind: 'id', required: true },
      role: { kind: 'string' },
    },
    async run(db, f) {
      const m = await putMember(db, f.org, f.user, memberRole(f.role ?? 'member'));
      return { orgId: m.orgId, userId: m.userId, role: m.role };
    },
  }),

  'role create': command({
    usage: 'role create --app <appId> --name N',
    flags: { app: { kind: 'id', required: true }, name: { kind: 'string', required: true } },
    async run(db, f) {
      const role = await addRole(db, f.app, f.name);
      return { id: role.id, name: role.name };
    },
  }),

  'permission create': command({
    usage: 'permission create --app <appId> --name N --verb GET --path /p [--description D]',
    flags: {
      app: { kind: 'id', required: true },
      name: { kind: 'string', required: true },
      verb: { kind: 'string', required: true },
      path: { kind: 'string', required: true },
      description: { kind: 'string' },
    },
    async run(db, f) {
      const p = await addPermission(db, f.app, {
        name: f.name,
        description: f.description,
        verb: f.verb,
        path: f.path,
      });
      return { id: p.id, name: p.name, description: p.description, verb: p.verb, path: p.path };
    },
  }),

  'role permit': command({
    usage: 'role permit --app <appId> --role <roleId> --permission <permId> [--off]',
    flags: {
      app: { kind: 'id', required: true },
      role: { kind: 'id', required: true },
      permission: { kind: 'id', required: true },
      off: { kind: 'bool' },
    },
    async run(db, f) {
      const on = !f.off;
      await switchPermission(db, f.app, f.role, f.permission, on);
      return { appId: f.app, roleId: f.role, permissionId: f.permission, on };
    },
  }),

  authorize: command({
    usage: 'authorize --app <appId> (--user <userId> | --org <orgId>) --role <roleId>',
    flags: {
      app: { kind: 'id', required: true },
      user: { kind: 'id' },
      org: { kind: 'id' },
      role: { kind: 'id', required: true },
    },
    async run(db, f) {
      if ((f.user === undefined) === (f.org === undefined)) {
        throw new UsageError('Give exactly one of --user and --org.');
      }
      const grantee =
        f.user !== undefined ? { kind: 'user' as const, id: f.user } : { kind: 'org' as const, id: f.org! };
      await addGrantee(db, f.app, grantee, f.role);
      return {
        appId: f.app,
        ...(grantee.kind === 'user' ? { userId: grantee.id } : { orgId: grantee.id }),
        roleId: f.role,
      };
    },
  }),

  migrate: command({
    usage: 'migrate',
    flags: {},
    // Builds what an upgrade added (the lookups' summary items, the user directory and the
    // administrators' set) for data written before it;
    // safe to run again, and while the service runs.
    async run(db) {
      return { ...(await rebuildSummaries(db)), ...(await rebuildDirectory(db)) };
    },
  }),

  // The signing keys of ID tokens (docs/operations.md): in IDM_SIGNING_KEYS_SECRET (AWS Secrets
  // Manager) when set, else in DATA_DIR/signing-keys.json.
  'keys rotate': command({
    usage: 'keys rotate [--alg RS256|ES256]',
    flags: { alg: { kind: 'string' } },
    table: false,
    async run(_db, f) {
      const alg = f.alg ?? SIGNING_ALGS[0];
      if (!(SIGNING_ALGS as readonly string[]).includes(alg)) {
        throw new UsageError(`--alg must be one of ${SIGNING_ALGS.join(', ')}.`);
      }
      return { keys: await rotateKeys(alg as SigningAlg) };
    },
  }),

  'keys list': command({
    usage: 'keys list',
    flags: {},
    table: false,
    async run() {
      return { keys: await listKeys() };
    },
  }),

  invoke: command({
    usage:
      "invoke <function> [--event event.json] [--method M --path P --query q=1 --header 'K: V' --body B]",
    flags: {
      event: { kind: 'string' },
      method: { kind: 'string' },
      path: { kind: 'string' },
      query: { kind: 'list' },
      header: { kind: 'list' },
      body: { kind: 'string' },
    },
    positionals: 1,
    needsS3: (args) => routeOf(args[0]!).logos !== 'none',
    async run(_db, f, args) {
      const route = routeOf(args[0]!);
      const event = await eventFor(route, f);
      return invoke(route, event);
    },
  }),
};

export const USAGE = `Usage: npx idm <command> [flags]

${Object.values(COMMANDS)
  .map((c) => `  idm ${c.usage}`)
  .join('\n')}

Acts on the table of a running \`npm start\` (same DATA_DIR), on IDM_TABLE_NAME with the usual AWS
environment when set, or else on DATA_DIR's DynamoDB Local files. Prints one JSON object; on error
one line on stderr and exit code 2 (bad input) or 1 (refused or failed).
`;

function findCommand(argv: string[]): { name: string; rest: string[] } | undefined {
  const two = `${argv[0]} ${argv[1]}`;
  if (COMMANDS[two]) return { name: two, rest: argv.slice(2) };
  if (argv[0] && COMMANDS[argv[0]]) return { name: argv[0], rest: argv.slice(1) };
  return undefined;
}

/** One line, whatever the error: the CLI's promise to scripts. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** Says which flag a domain validation message is about ("callbackUrl must…" → "--callback must…"). */
function withFlagNames(error: AppError, fields: Record<string, string> = {}): string {
  const field = error.field;
  if (!field) return error.message;
  const flag = fields[field] ?? field;
  return error.message.startsWith(field) ? `--${flag}${error.message.slice(field.length)}` : error.message;
}

export interface Outcome {
  code: number;
  stdout?: string;
  stderr?: string;
}

/** Runs one `idm` command line; never throws, never exits (bin/idm.mjs does). */
export async function run(argv: string[]): Promise<Outcome> {
  if (argv.length === 0) return { code: 2, stderr: USAGE };
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') return { code: 0, stdout: USAGE };
  const found = findCommand(argv);
  if (!found) {
    const given = argv.slice(0, 2).join(' ');
    return { code: 2, stderr: `idm: unknown command "${given}" (see npx idm --help).\n` };
  }
  const cmd = COMMANDS[found.name]!;
  let close: (() => Promise<void>) | undefined;
  try {
    if (found.rest.includes('--help')) return { code: 0, stdout: `Usage: npx idm ${cmd.usage}\n` };
    const { flags, args } = parseFlags(found.name, found.rest, cmd.flags, cmd.positionals ?? 0);
    if (cmd.table === false) {
      // The configuration insists on a table name; a command that opens no table does not use it.
      process.env.IDM_TABLE_NAME ||= LOCAL.table;
      return { code: 0, stdout: `${JSON.stringify(await cmd.run(NO_TABLE, flags, args))}\n` };
    }
    const target = await openTarget({ needS3: cmd.needsS3?.(args) ?? false });
    close = target.close;
    try {
      const result = await cmd.run(target.db, flags, args);
      return { code: 0, stdout: `${JSON.stringify(result)}\n` };
    } catch (error) {
      if ((error as { name?: string }).name === 'ResourceNotFoundException') {
        throw new AppError('not_found', `The ${target.where} does not exist.`);
      }
      throw error;
    }
  } catch (error) {
    let message: string;
    let code = 1;
    if (error instanceof UsageError) {
      message = error.message;
      code = 2;
    } else if (error instanceof AppError) {
      message = withFlagNames(error, cmd.fields);
      if (error.kind === 'validation') code = 2;
    } else if (error instanceof StartupError || (error as Error).message?.startsWith('Configuration error')) {
      message = (error as Error).message;
    } else {
      const e = error as { name?: string; message?: string };
      message = `${e.name ?? 'Error'}: ${e.message ?? String(error)}`;
    }
    return { code, stderr: `idm: ${oneLine(message)}\n` };
  } finally {
    await close?.();
  }
}
