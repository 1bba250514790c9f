import { Button } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { notify } from '../lib/notifications-store.ts';
import { confirmAction, type ConfirmOptions } from './confirm-dialog.tsx';

/** Runs a call and says `done` when it succeeded; a failed call already showed the API client's error toast. */
export async function runAndNotify(done: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
    notify({ type: 'success', title: done, timeout: 4000 });
  } catch {
    // The API client showed the server's message.
  }
}

/**
 * The small red button that ends a link between two records (a driver's assignment, a trailer, a
 * device's pairing): asks first, then runs the call and says `done`.
 */
export function UnlinkButton(props: { children: ReactNode; confirm: ConfirmOptions; done: string; run: () => Promise<unknown>; 'aria-label'?: string }) {
  return (
    <Button
      size="xs"
      variant="light"
      color="red"
      leftSection={<IconX size={14} />}
      aria-label={props['aria-label']}
      onClick={async () => {
        if (await confirmAction(props.confirm)) await runAndNotify(props.done, props.run);
      }}
    >
      {props.children}
    </Button>
  );
}
