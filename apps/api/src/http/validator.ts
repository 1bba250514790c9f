import { inputProblems } from '@fleet/api-contract';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

type Issue = FastifySchemaValidationError;

/**
 * The contract's input rules on a whole request part (no NUL or lone surrogate in any text or
 * field name, no subnormal number, no nesting past a limit; issue 43), each problem as a schema
 * issue would be, so it answers a 400 naming its field; null when there is none.
 */
export function inputRuleErrors(data: unknown): { error: Issue[] } | null {
  const problems = inputProblems(data);
  if (problems.length === 0) return null;
  return {
    error: problems.map((p) => ({ keyword: 'input_rule', instancePath: `/${p.path.join('/')}`, schemaPath: '#/input_rule', params: {}, message: p.message })),
  };
}

/** The schema's issues that say a value is not of its field's kind at all (a number where text belongs, a field that does not exist). */
const TYPE_ISSUES = new Set(['invalid_type', 'invalid_value', 'invalid_union', 'unrecognized_keys']);

/** The value at a rule's path (`/stops/0/laborHours`), as parsed. */
function valueAt(data: unknown, instancePath: string): unknown {
  let v = data;
  for (const key of instancePath.split('/').slice(1)) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

/** Where a schema issue is: its path, or for unknown fields each field's own path. */
const issuePaths = (i: Issue): string[] =>
  i.keyword === 'unrecognized_keys' && Array.isArray(i.params.keys)
    ? i.params.keys.map((k) => `${i.instancePath.replace(/\/$/, '')}/${String(k)}`)
    : [i.instancePath];
const within = (path: string, parent: string) => path === parent || path.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

/**
 * A number the rules refuse (subnormal, not finite) in a field that takes no number is answered as
 * the schema answers it, its type first (issue 66): "must be text", not "a subnormal number cannot
 * be stored". Text and nesting rules still come first: they guard what the schema would walk.
 */
function typeFirst(rules: Issue[], data: unknown, validate: (data: unknown) => { error?: Issue[] | undefined }): Issue[] {
  if (!rules.some((r) => typeof valueAt(data, r.instancePath) === 'number')) return rules;
  const typeIssues = (validate(data).error ?? []).filter((i) => TYPE_ISSUES.has(i.keyword));
  if (typeIssues.length === 0) return rules;
  const out: Issue[] = [];
  for (const r of rules) {
    const wrongType = typeof valueAt(data, r.instancePath) === 'number' ? typeIssues.filter((i) => issuePaths(i).some((p) => within(r.instancePath, p))) : [];
    out.push(...(wrongType.length ? wrongType : [r]));
  }
  return [...new Set(out)];
}

/** The validator of every route: the input rules first (one place, so every schema inherits them), then its zod schema. */
export const validatorWithInputRules: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data) => {
    const rules = inputRuleErrors(data);
    if (!rules) return validate(data);
    return { error: typeFirst(rules.error, data, (d) => validate(d) as { error?: Issue[] }) };
  };
};
