import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type Path, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';

/**
 * react-hook-form bound to a zod schema from @fleet/api-contract. Spec section 5: forms validate on
 * blur and change, not while a field is first typed: `onTouched` checks a field when it loses focus and
 * from then on at each change, so a fixed value clears its message at once (and the layout does not
 * jump under the pointer). Pass `mode: 'onChange'` where a form validates on input (login).
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    mode: 'onTouched',
    reValidateMode: 'onChange',
    ...options,
    resolver: zodResolver(schema),
  });
}

/** `{...register(name), error}` for a Mantine input. */
export function field<T extends FieldValues>(form: UseFormReturn<T, unknown, FieldValues>, name: Path<T>) {
  const error = name.split('.').reduce<unknown>((acc, k) => (acc as Record<string, unknown> | undefined)?.[k], form.formState.errors) as
    | { message?: string }
    | undefined;
  return { ...form.register(name), error: error?.message };
}
