import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, Drawer, Fieldset, NativeSelect, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { driverInputSchema, HOS_RULESETS, LICENSE_CLASSES, STATE_OPTIONS, US_TIME_ZONES, type Driver } from '@fleet/api-contract';
import { RULESET_LABELS } from '@fleet/hos/ruleset-facts';
import { field, useZodForm } from '../../lib/form.ts';
import { nullableField, showServerError, useCan } from '../../lib/registry-api.ts';
import { FormFooter } from '../../components/form-footer.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { saveDriver, useDriverMutation, useLinkableUsers, useTerminalChoices } from './drivers-api.ts';

const STATES = [{ value: '', label: 'Choose…' }, ...STATE_OPTIONS.map((s) => ({ value: s.code, label: `${s.code} · ${s.name}` }))];
const CLASSES = [{ value: '', label: '—' }, ...LICENSE_CLASSES.map((c) => ({ value: c, label: c === 'NON_CDL' ? 'Non-CDL' : `Class ${c} CDL` }))];
/** Readable names of the packages/hos ruleset ids. */
const RULESET_LABEL: Record<string, string> = RULESET_LABELS;
export const rulesetLabel = (id: string) =>
  RULESET_LABEL[id] ??
  id
    .replaceAll('_', ' ')
    .toLowerCase()
    .replace(/^\w/, (c) => c.toUpperCase());
const FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'employeeId',
  'licenseNumber',
  'licenseState',
  'licenseClass',
  'licenseExpiry',
  'homeTerminalId',
  'homeTimeZone',
  'ruleset',
  'eldExemptReason',
  'status',
  'userId',
  'notes',
  'invite',
  'cardNumber',
];
const t = (v: string | null | undefined) => v ?? '';

/** The full driver form (licence, home terminal and its time zone, HoS ruleset, exemptions, ELD exemption, sign-in account). */
export function DriverFormDrawer({
  driver,
  opened,
  onClose,
  cardNumber,
}: {
  driver: Driver | null;
  opened: boolean;
  onClose: () => void;
  /** A new driver's card, filled in (from a vehicle's unknown card, issue 73); default: none. */
  cardNumber?: string | null;
}) {
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="lg" title={driver ? `Edit ${driver.firstName} ${driver.lastName}` : 'Add driver'}>
      {opened && <DriverForm driver={driver} onClose={onClose} cardNumber={cardNumber ?? null} />}
    </Drawer>
  );
}

function DriverForm({ driver: d, onClose, cardNumber }: { driver: Driver | null; onClose: () => void; cardNumber: string | null }) {
  const { t: words } = useTranslation();
  const canListUsers = useCan('USER_LIST');
  const users = useLinkableUsers(canListUsers);
  const form = useZodForm(driverInputSchema, {
    defaultValues: {
      firstName: t(d?.firstName),
      lastName: t(d?.lastName),
      email: t(d?.email),
      phone: t(d?.phone),
      employeeId: t(d?.employeeId),
      licenseNumber: t(d?.licenseNumber),
      licenseState: t(d?.licenseState),
      licenseClass: (d?.licenseClass ?? null) as 'A' | null,
      licenseExpiry: t(d?.licenseExpiry),
      homeTerminalId: d?.homeTerminalId ?? null,
      homeTimeZone: d?.homeTimeZone ?? 'America/Chicago',
      ruleset: (d?.ruleset ?? 'US_PROPERTY_70_8') as 'US_PROPERTY_70_8',
      shortHaul150: d?.shortHaul150 ?? false,
      sixteenHour: d?.sixteenHour ?? false,
      oilfield: d?.oilfield ?? false,
      personalConveyanceAllowed: d?.personalConveyanceAllowed ?? false,
      yardMovesAllowed: d?.yardMovesAllowed ?? false,
      eldExempt: d?.eldExempt ?? false,
      eldExemptReason: t(d?.eldExemptReason),
      status: d?.status ?? 'ACTIVE',
      userId: d?.user?.id ?? null,
      notes: t(d?.notes),
      invite: false,
      cardNumber: d ? t(d.cardNumber) : t(cardNumber),
    },
  });
  const terminals = useTerminalChoices();
  const terminalId = form.watch('homeTerminalId');
  const terminal = (terminals.data?.content ?? []).find((x) => x.id === terminalId);
  // The terminal's zone is the driver's (issue 46): the log days follow the terminal.
  useEffect(() => {
    if (terminal && form.getValues('homeTimeZone') !== terminal.timeZone) form.setValue('homeTimeZone', terminal.timeZone, { shouldDirty: true });
  }, [terminal, form]);
  const canInvite = useCan('USER_CREATE');
  const linkedAccount = form.watch('userId');
  const save = useDriverMutation((body: unknown) => saveDriver(d?.id, body));
  const eldExempt = form.watch('eldExempt');
  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      notify({
        type: 'success',
        title: `Driver ${saved.firstName} ${saved.lastName} saved`,
        ...(values.invite && saved.user ? { category: `Invitation to sign in sent to ${saved.user.email}` } : {}),
        timeout: 4000,
      });
      onClose();
    } catch (err) {
      if (!showServerError(form, err, FIELDS)) form.setError('root', { message: (err as Error).message });
    }
  });
  const zoneData: { value: string; label: string }[] = US_TIME_ZONES.map((z) => ({ value: z.id, label: z.label }));
  if (d && !zoneData.some((z) => z.value === d.homeTimeZone)) zoneData.push({ value: d.homeTimeZone, label: d.homeTimeZone });
  if (terminal && !zoneData.some((z) => z.value === terminal.timeZone)) zoneData.push({ value: terminal.timeZone, label: terminal.timeZone });
  const terminalData = [
    { value: '', label: 'None: the main office' },
    ...(terminals.data?.content ?? []).map((x) => ({ value: x.id, label: `${x.name} · ${x.city}, ${x.state}` })),
  ];
  if (d?.homeTerminalId && !terminalData.some((x) => x.value === d.homeTerminalId)) terminalData.push({ value: d.homeTerminalId, label: 'Current terminal' });
  const userData = [{ value: '', label: 'No sign-in account' }, ...(users.data?.content ?? []).map((u) => ({ value: u.id, label: u.email }))];
  if (d?.user && !userData.some((u) => u.value === d.user?.id)) userData.push({ value: d.user.id, label: d.user.email });

  return (
    <form onSubmit={submit} noValidate aria-label="Driver form">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="First name" required {...field(form, 'firstName')} data-autofocus />
          <TextInput label="Last name" required {...field(form, 'lastName')} />
          <TextInput label="E-mail" type="email" {...field(form, 'email')} />
          <TextInput label="Phone" type="tel" {...field(form, 'phone')} />
          <TextInput label="Employee id" {...field(form, 'employeeId')} />
          <NativeSelect
            label="Status"
            data={[
              { value: 'ACTIVE', label: 'Active' },
              { value: 'INACTIVE', label: 'Inactive' },
            ]}
            {...field(form, 'status')}
          />
        </SimpleGrid>
        <TextInput
          label={words('driverCard.label')}
          description={words('driverCard.description')}
          placeholder="1A0000004D5E2C01"
          autoComplete="off"
          styles={{ input: { fontFamily: 'monospace' } }}
          {...field(form, 'cardNumber')}
        />
        <Fieldset legend="Licence">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label="Licence number" required {...field(form, 'licenseNumber')} />
            <NativeSelect label="Issuing state or province" required data={STATES} {...field(form, 'licenseState')} />
            <NativeSelect label="Class" data={CLASSES} {...nullableField(form, 'licenseClass')} />
            <TextInput label="Expiry" type="date" {...field(form, 'licenseExpiry')} />
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend="Hours of service">
          <Stack gap="sm">
            <NativeSelect
              label="Home terminal"
              description={terminal ? terminal.address : "The log's header shows the terminal's address; without one, the main office's"}
              data={terminalData}
              {...nullableField(form, 'homeTerminalId')}
            />
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <NativeSelect
                label="Home terminal time zone"
                description={terminal ? "The terminal's zone" : undefined}
                data={zoneData}
                disabled={!!terminal}
                {...field(form, 'homeTimeZone')}
              />
              <NativeSelect label="HoS ruleset" data={HOS_RULESETS.map((r) => ({ value: r, label: rulesetLabel(r) }))} {...field(form, 'ruleset')} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
              <Checkbox label="Short-haul 150 air-mile exemption" {...form.register('shortHaul150')} />
              <Checkbox label="16-hour short-haul exception" {...form.register('sixteenHour')} />
              <Checkbox label="Personal conveyance allowed" {...form.register('personalConveyanceAllowed')} />
              <Checkbox label="Yard moves allowed" {...form.register('yardMovesAllowed')} />
              <Checkbox
                label="Oilfield operations"
                description="US property rulesets: 24-hour restart and well-site waiting time (49 CFR 395.1(d))"
                {...form.register('oilfield')}
              />
            </SimpleGrid>
            <Checkbox label="Exempt from the ELD rule" {...form.register('eldExempt')} />
            {eldExempt && (
              <TextInput label="ELD exemption reason" required placeholder="e.g. vehicle older than model year 2000" {...field(form, 'eldExemptReason')} />
            )}
          </Stack>
        </Fieldset>
        {canListUsers && (
          <NativeSelect label="Sign-in account" description="The user this driver signs in with" data={userData} {...nullableField(form, 'userId')} />
        )}
        {/* Decision 0111: a new account with the built-in Driver role, invited by e-mail, for the driver app. */}
        {canInvite && !d?.user && !linkedAccount && (
          <Checkbox
            label="Invite to sign in to the driver app"
            description="Sends the invitation e-mail to the address above; the driver signs in with the Driver role and sees only their own log."
            {...form.register('invite')}
            error={form.formState.errors.invite?.message}
          />
        )}
        <Textarea label="Notes" autosize minRows={2} maxRows={6} {...field(form, 'notes')} />
        <FormFooter form={form} busy={save.isPending} onCancel={onClose} />
      </Stack>
    </form>
  );
}
