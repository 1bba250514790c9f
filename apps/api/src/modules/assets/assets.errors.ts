import { conflict, uniqueViolation, type AppError } from '../../lib/errors.ts';

/** A unique-constraint violation on assets as a 409 naming the field, else null. */
export function assetDuplicate(err: unknown, input: { unitNumber: string; vin: string | null }): AppError | null {
  switch (uniqueViolation(err)) {
    case 'assets_org_unit_uq':
      return conflict(`unitNumber: Unit number ${input.unitNumber} is already used by another vehicle or trailer`, 'assets_org_unit_uq');
    case 'assets_org_vin_uq':
      return conflict(`vin: VIN ${input.vin ?? ''} is already registered in this organization`, 'assets_org_vin_uq');
    default:
      return null;
  }
}
