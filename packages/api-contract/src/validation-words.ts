// The words without zod, so the sign-in page validates as the contract does without loading it.

/**
 * Generic validation texts of spec section 5, each naming its field. Fields without a message of
 * their own get the same words from the error map in field-words.ts.
 */
export const messages = {
  required: (label: string) => `${label} is a required field`,
  email: (label: string) => `${label} must be a valid email address`,
  min: (label: string, min: number) => `${label} must be at least ${min} characters`,
  max: (label: string, max: number) => `${label} must be at most ${max} characters`,
  invalid: (label: string) => `${label} is not valid.`,
};
