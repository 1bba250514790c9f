import { Alert } from '@mantine/core';
import { describeError } from '../lib/api-client.ts';

/** An error answered in a drawer or form (e.g. a file's preview): the server's message and details; nothing when there is none. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (error === null) return null;
  const { title, details } = describeError(error);
  return (
    <Alert color="red" role="alert" title={title}>
      {details}
    </Alert>
  );
}
