/**
 * A small, strict flag parser for `idm`: every command declares its flags, and anything else
 * (an unknown flag, a missing value, a non-integer id) is a usage error with one sentence.
 * node:util parseArgs would do most of this, but its messages are long and it has no integer type.
 */

/** Bad command-line input; `idm` prints the message and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type FlagKind = 'string' | 'id' | 'bool' | 'list';

export interface FlagSpec {
  kind: FlagKind;
  required?: boolean;
}

export type FlagSpecs = Record<string, FlagSpec>;

type ValueOf<S extends FlagSpec> = S['kind'] extends 'id'
  ? number
  : S['kind'] extends 'bool'
    ? boolean
    : S['kind'] extends 'list'
      ? string[]
      : string;

/** Parsed flags: required ones are always present, optional ones may be undefined. */
export type Flags<S extends FlagSpecs> = {
  [K in keyof S]: S[K]['required'] extends true ? ValueOf<S[K]> : ValueOf<S[K]> | undefined;
};

/** Parses a positive integer id the way the store expects it (no signs, no decimals, no spaces). */
export function parseId(flag: string, raw: string): number {
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`--${flag} must be a positive integer, got "${raw}".`);
  }
  return n;
}

/**
 * Parses `--name value` and `--name=value` tokens against `specs`. `positionals` says how many
 * bare arguments the command takes (only `invoke` takes one).
 */
export function parseFlags<S extends FlagSpecs>(
  command: string,
  argv: readonly string[],
  specs: S,
  positionals = 0,
): { flags: Flags<S>; args: string[] } {
  const values: Record<string, string | number | boolean | string[]> = {};
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('--') || token === '--') {
      if (args.length >= positionals)
        throw new UsageError(`Unexpected argument "${token}" for "idm ${command}".`);
      args.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const name = eq === -1 ? token.slice(2) : token.slice(2, eq);
    const spec = specs[name];
    if (!spec) throw new UsageError(`Unknown flag --${name} for "idm ${command}" (see idm --help).`);
    if (spec.kind === 'bool') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value.`);
      values[name] = true;
      continue;
    }
    let raw: string | undefined;
    if (eq !== -1) raw = token.slice(eq + 1);
    else {
      raw = argv[i + 1];
      // A following flag means the value was forgotten, not that it starts with dashes.
      if (raw === undefined || raw.startsWith('--')) throw new UsageError(`--${name} needs a value.`);
      i++;
    }
    if (spec.kind === 'list') {
      values[name] = [...((values[name] as string[] | undefined) ?? []), raw];
      continue;
    }
    if (values[name] !== undefined) throw new UsageError(`--${name} is given twice.`);
    values[name] = spec.kind === 'id' ? parseId(name, raw) : raw;
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.required && values[name] === undefined) {
      throw new UsageError(`--${name} is required for "idm ${command}".`);
    }
  }
  if (args.length < positionals) throw new UsageError(`"idm ${command}" needs an argument (see idm --help).`);
  return { flags: values as Flags<S>, args };
}
