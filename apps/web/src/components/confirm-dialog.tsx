import { Suspense } from 'react';
import { createStore, useStore } from '../lib/create-store.ts';
import { lazyPart, useOnceTrue } from './on-first-use.ts';

// The dialog's code (Mantine's Modal, its focus trap) loads the first time an action asks (issue 67).
const ConfirmModal = lazyPart(() => import('./confirm-modal.tsx'));

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button for destructive actions (default true). */
  danger?: boolean;
}

interface Pending extends ConfirmOptions {
  resolve: (ok: boolean) => void;
}

const pendingStore = createStore<Pending | null>(null);

/**
 * Asks before a destructive action: `if (await confirmAction({title, message})) remove.mutate(id)`.
 * Needs <ConfirmHost /> once in the tree (the signed-in shell renders it).
 */
export function confirmAction(options: ConfirmOptions): Promise<boolean> {
  pendingStore.get()?.resolve(false);
  return new Promise((resolve) => pendingStore.set({ ...options, resolve }));
}

function settle(ok: boolean) {
  const p = pendingStore.get();
  pendingStore.set(null);
  p?.resolve(ok);
}

export function ConfirmHost() {
  const p = useStore(pendingStore);
  const used = useOnceTrue(!!p);
  return used ? (
    <Suspense fallback={null}>
      <ConfirmModal pending={p} onSettle={settle} />
    </Suspense>
  ) : null;
}
