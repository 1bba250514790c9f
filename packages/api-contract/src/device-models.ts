import { z } from 'zod';
import { optionalText } from './registry-fields.ts';
import { pageQuerySchema, pageSchema } from './paging.ts';
import { defineLabels } from './field-words.ts';
import { requiredText } from './validation.ts';
import { ioMapSchema } from './engine-data.ts';

defineLabels({ manufacturer: 'Manufacturer', protocol: 'Protocol', ioMap: 'IO map' });

/** Global catalogue entry (super administrators manage it; organizations pick from it). */
export const deviceModelInputSchema = z.object({
  name: requiredText('Name', 100),
  manufacturer: optionalText(100),
  protocol: requiredText('Protocol', 40)
    .transform((v) => v.toLowerCase())
    .pipe(z.string().regex(/^[a-z0-9_-]+$/, 'Protocol may use letters, digits, _ and -')),
  notes: optionalText(2000),
  /** Numbered IO elements to named attributes (Teltonika); empty with protocol teltonika: TELTONIKA_DEFAULT_IO_MAP. Left out on edit: unchanged. */
  ioMap: ioMapSchema.optional(),
});
export type DeviceModelInput = z.input<typeof deviceModelInputSchema>;

export const deviceModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  manufacturer: z.string().nullable(),
  protocol: z.string(),
  notes: z.string().nullable(),
  ioMap: ioMapSchema,
  deviceCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeviceModel = z.infer<typeof deviceModelSchema>;
export const deviceModelPageSchema = pageSchema(deviceModelSchema);
export const deviceModelListQuery = pageQuerySchema.extend({ size: pageQuerySchema.shape.size.default(100) });
export const deviceModelIdParams = z.object({ id: z.uuid('id must be a device model id') });
