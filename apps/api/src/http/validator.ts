import { inputProblems } from '@fleet/api-contract';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

/**
 * The contract's input rules on a whole request part (no NUL or lone surrogate in any text or
 * field name, no subnormal number, no nesting past a limit; issue 43), each problem as a schema
 * issue would be, so it answers a 400 naming its field; null when there is none.
 */
export function inputRuleErrors(data: unknown): { error: FastifySchemaValidationError[] } | null {
  const problems = inputProblems(data);
  if (problems.length === 0) return null;
  return {
    error: problems.map((p) => ({ keyword: 'input_rule', instancePath: `/${p.path.join('/')}`, schemaPath: '#/input_rule', params: {}, message: p.message })),
  };
}

/** The validator of every route: the input rules first (one place, so every schema inherits them), then its zod schema. */
export const validatorWithInputRules: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data) => inputRuleErrors(data) ?? validate(data);
};
