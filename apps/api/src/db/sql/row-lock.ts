/**
 * How strongly a row is locked for the rest of a transaction. `no key update` serializes writers of
 * the row without holding back the key checks of inserts that name it (the group commit's
 * positions); `update` where the row may be deleted (decision 0220).
 */
export type RowLock = 'update' | 'no key update';
