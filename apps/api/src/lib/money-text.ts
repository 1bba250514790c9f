/** An amount in cents in the currency's own way ($75.00, -$12.50): invoices, statements, their PDFs. */
export function moneyText(cents: number, currency = 'USD'): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
  } catch {
    // A currency code Intl does not know still prints.
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}
