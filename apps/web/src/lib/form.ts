import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldErrors, type FieldValues, type Path, type Resolver, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';

/** Words for a validation issue in the reader's language; undefined keeps the contract's message. */
export type IssueWords = (issue: z.core.$ZodIssue) => string | undefined;

/**
 * zodResolver, its messages reworded by `words` from each issue (its kind, bound and field), which
 * the resolver does not pass on: the schema is parsed again only when the values have errors.
 */
function wordedResolver<S extends z.ZodType<FieldValues, FieldValues>>(schema: S, words: IssueWords): Resolver<z.input<S>, unknown, z.output<S>> {
  const resolve = zodResolver(schema);
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    if (!Object.keys(result.errors).length) return result;
    const parsed = await schema.safeParseAsync(values);
    for (const issue of parsed.error?.issues ?? []) {
      const error = issue.path.reduce<unknown>((acc, k) => (acc as Record<PropertyKey, unknown> | undefined)?.[k], result.errors) as
        { message?: string } | undefined;
      const worded = error?.message === issue.message ? words(issue) : undefined;
      if (error && worded) error.message = worded;
    }
    return result as { values: Record<string, never>; errors: FieldErrors<z.input<S>> };
  };
}

/**
 * react-hook-form bound to a zod schema from @fleet/api-contract. Spec section 5: forms validate on
 * blur and change, not while a field is first typed: `onTouched` checks a field when it loses focus and
 * from then on at each change, so a fixed value clears its message at once (and the layout does not
 * jump under the pointer). Pass `mode: 'onChange'` where a form validates on input (login).
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  { issueWords, ...options }: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> & { issueWords?: IssueWords } = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    mode: 'onTouched',
    reValidateMode: 'onChange',
    ...options,
    resolver: issueWords ? wordedResolver(schema, issueWords) : zodResolver(schema),
  });
}

/** `{...register(name), error}` for a Mantine input. */
export function field<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, name: Path<T>) {
  const error = name.split('.').reduce<unknown>((acc, k) => (acc as Record<string, unknown> | undefined)?.[k], form.formState.errors) as
    { message?: string } | undefined;
  return { ...form.register(name), error: error?.message };
}
