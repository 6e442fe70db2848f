/**
 * Keyrock matches a permission with `is_regex` by running its resource as a JavaScript RegExp
 * (flag `i`) against the path a PEP proxy asks about (models/model_oauth_server.js). Node has no
 * linear-time engine (no RE2), so a pattern with catastrophic backtracking would hang the lookup
 * that runs it. Patterns are therefore checked before they are stored, conservatively: anything
 * this checker cannot show to be cheap is refused (docs/decisions.md).
 *
 * Refused: more than MAX_LENGTH characters; backreferences (`\1`, `\k<name>`) and lookarounds,
 * whose cost no syntactic rule bounds; a quantified group that itself holds a quantifier or an
 * alternation (`(a+)+`, `(a|a)*`: exponential); bounded repeats above MAX_REPEAT; more than
 * MAX_UNBOUNDED unbounded quantifiers (`.*.*.*` is cubic in the path length); anything
 * `new RegExp` rejects.
 */
export const REGEX_LIMITS = { length: 200, repeat: 100, unbounded: 2 } as const;

export type RegexVerdict = { ok: true; regex: RegExp } | { ok: false; reason: string };

interface Group {
  quantified: boolean;
  alternation: boolean;
}

function refuse(reason: string): RegexVerdict {
  return { ok: false, reason };
}

/** Reads a `{n}`, `{n,}` or `{n,m}` quantifier at `i`; undefined when `{` is a literal there. */
function braces(p: string, i: number): { end: number; max: number | undefined } | undefined {
  const m = /^\{(\d{1,6})(,(\d{0,6}))?\}/.exec(p.slice(i));
  if (!m) return undefined;
  const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? undefined : Number(m[3]);
  return { end: i + m[0].length, max };
}

export function checkRegex(pattern: string): RegexVerdict {
  if (pattern.length === 0) return refuse('The pattern is empty.');
  if (pattern.length > REGEX_LIMITS.length) {
    return refuse(`The pattern may have at most ${REGEX_LIMITS.length} characters.`);
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'i');
  } catch {
    return refuse('The pattern is not a valid regular expression.');
  }
  const stack: Group[] = [{ quantified: false, alternation: false }];
  let unbounded = 0;
  // What a quantifier at the current position applies to: a group just closed, an atom, nothing.
  let last: 'group' | 'atom' | 'none' = 'none';
  let closed: Group | undefined;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return refuse('Backreferences are not allowed.');
      // Without the `u` flag, `\u{4}` is `u` repeated: the braces are read as a quantifier next.
      i += 2;
      last = 'atom';
      continue;
    }
    if (c === '[') {
      // A character class is one atom; `]` right after `[` or `[^` is a literal in it.
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j + 1;
      last = 'atom';
      continue;
    }
    if (c === '(') {
      if (/^\(\?(=|!|<=|<!)/.test(pattern.slice(i))) return refuse('Lookarounds are not allowed.');
      stack.push({ quantified: false, alternation: false });
      const named = /^\(\?(:|<[A-Za-z_$][\w$]*>)/.exec(pattern.slice(i));
      i += named ? named[0].length : 1;
      last = 'none';
      continue;
    }
    if (c === ')') {
      closed = stack.pop();
      const parent = stack[stack.length - 1]!;
      // A group's inner quantifiers and alternations count for the groups around it too.
      if (closed) {
        parent.quantified ||= closed.quantified;
        parent.alternation ||= closed.alternation;
      }
      i++;
      last = 'group';
      continue;
    }
    if (c === '|') {
      stack[stack.length - 1]!.alternation = true;
      i++;
      last = 'none';
      continue;
    }
    let quantifier: { end: number; max: number | undefined } | undefined;
    if (c === '*' || c === '+') quantifier = { end: i + 1, max: undefined };
    else if (c === '?') quantifier = { end: i + 1, max: 1 };
    else if (c === '{') quantifier = braces(pattern, i);
    if (!quantifier) {
      i++;
      last = 'atom';
      continue;
    }
    if (quantifier.max !== undefined && quantifier.max > REGEX_LIMITS.repeat) {
      return refuse(`Repeats may allow at most ${REGEX_LIMITS.repeat} times.`);
    }
    if (quantifier.max === undefined && ++unbounded > REGEX_LIMITS.unbounded) {
      return refuse(`The pattern may hold at most ${REGEX_LIMITS.unbounded} unbounded repeats.`);
    }
    // `?` runs a group at most once, which cannot backtrack into itself.
    if (last === 'group' && closed && (closed.quantified || closed.alternation) && quantifier.max !== 1) {
      return refuse('A repeated group may not hold repeats or alternatives (nested quantifiers).');
    }
    stack[stack.length - 1]!.quantified = true;
    i = quantifier.end;
    // A lazy or possessive-looking suffix belongs to this quantifier.
    if (pattern[i] === '?') i++;
    last = 'none';
  }
  return { ok: true, regex };
}
