import type { ReactNode } from 'react';
import { Button, Group } from '@mantine/core';
import { notify } from '../lib/notifications-store.ts';

/**
 * Cancel and Import under an import's preview. Import (enabled once there is something valid to
 * import, `run` given) runs the import, says what it did and closes; when it fails the API client
 * showed the error toast and the drawer stays open.
 */
export function ImportActions<R>(props: {
  onClose: () => void;
  /** Null while there is nothing to import yet (no file read). */
  run: (() => Promise<R>) | null;
  /** No preview yet, or no valid row in it. */
  disabled: boolean;
  pending: boolean;
  done: (result: R) => string;
  timeout: number;
  children: ReactNode;
}) {
  const { run } = props;
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={props.onClose}>
        Cancel
      </Button>
      <Button
        disabled={!run || props.disabled}
        loading={props.pending}
        onClick={async () => {
          if (!run) return;
          try {
            const r = await run();
            notify({ type: 'success', title: props.done(r), timeout: props.timeout });
            props.onClose();
          } catch {
            // toast shown
          }
        }}
      >
        {props.children}
      </Button>
    </Group>
  );
}
