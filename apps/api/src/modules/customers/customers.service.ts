import type { Customer, CustomerCreate, CustomerUpdate, Page, PageQuery } from '@fleet/api-contract';
import type { DbOrTx } from '../../db/client.ts';
import { duplicateError } from '../../db/sql/constraint-words.ts';
import { conflict, invalidField, notFound } from '../../http/errors.ts';
import { toPage } from '../../http/paging.ts';
import { recordActivity } from '../activity-log/index.ts';
import type { Actor, ReadScope, Scope } from '../auth/index.ts';
import {
  customerNamed,
  customerPage,
  deleteCustomerRow,
  findCustomer,
  insertCustomer,
  insertCustomerNamed,
  loadsNaming,
  renameLoadsOf,
  updateCustomerRow,
  type CustomerRow,
} from './customers.repository.ts';

// Customers (issue 70, decision 0284): the brokers and shippers a carrier bills. A load names one;
// its printed `customer` is then the customer's name, and a rename carries over to its loads in the
// same transaction. A customer named by loads is not deleted (409): its loads' invoices and
// detention read it.

function present(c: CustomerRow, loadCount: number): Customer {
  return {
    id: c.id,
    name: c.name,
    billingAddress: c.billingAddress,
    invoiceEmail: c.invoiceEmail,
    paymentTermsDays: c.paymentTermsDays,
    detentionFreeMinutes: c.detentionFreeMinutes,
    detentionCentsPerHour: c.detentionCentsPerHour,
    requiresPod: c.requiresPod,
    notes: c.notes,
    loadCount,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** A page of the organization's customers, by name unless sorted otherwise; search by name, address, e-mail or notes. */
export async function listCustomers({ db, orgId }: ReadScope, q: PageQuery): Promise<Page<Customer>> {
  const { rows, total } = await customerPage(db, orgId, q);
  return toPage(
    rows.map((r) => present(r.row, r.loadCount)),
    total,
    q,
  );
}

export async function getCustomer({ db, orgId }: ReadScope, customerId: string): Promise<Customer> {
  const c = await findCustomer(db, orgId, customerId);
  if (!c) throw notFound('Customer');
  return present(c, await loadsNaming(db, orgId, customerId));
}

export async function createCustomer({ db, orgId, actor }: Scope, input: CustomerCreate): Promise<Customer> {
  try {
    const row = await db.transaction(async (tx) => {
      const c = await insertCustomer(tx, orgId, input);
      await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'CUSTOMER', entityId: c.id, after: c });
      return c;
    });
    return present(row, 0);
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
}

/** Changes the fields sent; a new name becomes the printed name of the customer's loads too. */
export async function updateCustomer({ db, orgId, actor }: Scope, customerId: string, input: CustomerUpdate): Promise<Customer> {
  try {
    await db.transaction(async (tx) => {
      const before = await findCustomer(tx, orgId, customerId, true);
      if (!before) throw notFound('Customer');
      const after = await updateCustomerRow(tx, orgId, customerId, input);
      const renamed = after.name !== before.name ? await renameLoadsOf(tx, orgId, customerId, after.name) : 0;
      await recordActivity(tx, {
        orgId,
        actor,
        action: 'UPDATE',
        entityType: 'CUSTOMER',
        entityId: customerId,
        before,
        after: { ...after, ...(renamed ? { loadsRenamed: renamed } : {}) },
      });
    });
  } catch (err) {
    throw duplicateError(err, input) ?? err;
  }
  return getCustomer({ db, orgId }, customerId);
}

/** Deletes a customer no load names; one in use is refused (409) saying how many loads name it. */
export async function deleteCustomer({ db, orgId, actor }: Scope, customerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findCustomer(tx, orgId, customerId, true);
    if (!before) throw notFound('Customer');
    const n = await loadsNaming(tx, orgId, customerId);
    if (n > 0) {
      throw conflict(
        `${before.name} is the customer of ${n} load${n === 1 ? '' : 's'}: it stays while loads name it (their invoices and detention read it)`,
        `customer named by ${n} load(s)`,
        'common.still_referenced',
      );
    }
    await deleteCustomerRow(tx, orgId, customerId);
    await recordActivity(tx, { orgId, actor, action: 'DELETE', entityType: 'CUSTOMER', entityId: customerId, before });
  });
}

/**
 * The customer a load being saved names, inside the load's transaction: the one `customerId` gives
 * (400 on `customerId` unless it is the organization's), else the one named `customer` whatever its
 * case, else a new customer of that name (with the defaults, logged as made by the same actor), so
 * every load typed with a name is in the registry as the migration put the earlier ones.
 */
export async function customerForLoad(
  tx: DbOrTx,
  orgId: string,
  actor: Actor,
  load: { customerId?: string | null | undefined; customer?: string | undefined },
): Promise<{ customerId: string; customer: string }> {
  if (load.customerId) {
    const c = await findCustomer(tx, orgId, load.customerId);
    if (!c) throw invalidField('customerId', 'Customer must be a customer of this organization');
    return { customerId: c.id, customer: c.name };
  }
  const name = load.customer?.trim();
  if (!name) throw invalidField('customer', 'Customer is a required field');
  const known = await customerNamed(tx, orgId, name);
  if (known) return { customerId: known.id, customer: known.name };
  const made = await insertCustomerNamed(tx, orgId, name);
  if (made) {
    await recordActivity(tx, { orgId, actor, action: 'CREATE', entityType: 'CUSTOMER', entityId: made.id, after: made });
    return { customerId: made.id, customer: made.name };
  }
  // Another load made it a moment ago (its transaction committed while this insert waited).
  const raced = await customerNamed(tx, orgId, name);
  if (!raced) throw new Error(`customer ${name} neither inserted nor found`);
  return { customerId: raced.id, customer: raced.name };
}
