import { useState } from 'react';
import { Autocomplete } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { paymentTermsLabel } from '@fleet/api-contract/customers';
import type { Customer } from '@fleet/api-contract';
import { useCustomerOptions } from './dispatch-api.ts';

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** What the field says under itself: the picked customer's terms, or that a new name joins the registry. */
function hint(value: string, picked: Customer | undefined, suggested: number, searching: boolean): string | undefined {
  if (!value.trim()) return 'Pick one of your customers, or type a new one';
  if (picked) return `${paymentTermsLabel(picked.paymentTermsDays)}${picked.requiresPod ? ' · proof of delivery required' : ''}`;
  if (searching) return undefined;
  return suggested ? 'Pick one of these, or type a new customer' : 'New customer: saving the load adds it to Customers';
}

/**
 * The load form's customer (issue 70): a name picked from the customers (suggested as it is typed,
 * searched on the server) or a new name, which the server adds to the registry when the load is
 * saved (decision 0284). `onChange` gets the text and the id of the customer it names, if known.
 */
export function CustomerField({
  value,
  customerId,
  onChange,
  error,
}: {
  value: string;
  customerId: string | null;
  onChange: (text: string, customerId: string | null) => void;
  error: string | undefined;
}) {
  const [search] = useDebouncedValue(value, 250);
  const options = useCustomerOptions(search);
  const found = options.data?.content ?? [];
  // The picked customer (by id), else the one the text names exactly.
  const [known, setKnown] = useState<Customer | undefined>(undefined);
  const picked = found.find((c) => c.id === customerId) ?? (known && known.id === customerId ? known : undefined) ?? found.find((c) => same(c.name, value));
  return (
    <Autocomplete
      label="Customer"
      required
      maxLength={200}
      data={[...new Set(found.map((c) => c.name))]}
      value={value}
      onChange={(text) => {
        const match = found.find((c) => same(c.name, text));
        if (match) setKnown(match);
        // Still the picked customer's name: keep its id; else the server resolves the name.
        onChange(text, match?.id ?? (picked && same(picked.name, text) ? picked.id : null));
      }}
      description={error ? undefined : hint(value, picked, found.length, options.isFetching || search !== value)}
      // Under the input, so the input lines up with the fields beside it whatever the hint says.
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={error}
      limit={10}
      data-autofocus
    />
  );
}
