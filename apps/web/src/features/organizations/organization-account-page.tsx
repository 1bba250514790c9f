import type { ComponentType, ReactNode } from 'react';
import {
  Alert,
  Button,
  Card,
  FileButton,
  Group,
  Image,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { IconBuilding, IconInfoCircle, IconTrash, IconUpload } from '@tabler/icons-react';
import {
  COMPLIANCE_EXPIRING_DAYS,
  hasPermission,
  lengthFromM,
  lengthToM,
  organizationAccountSchema,
  organizationSettingsSchema,
  type Organization,
} from '@fleet/api-contract';
import { confirmAction } from '../../components/confirm-dialog.tsx';
import { DataState } from '../../components/data-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAccessUser } from '../../lib/control-store.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { kmhFromSpeed, speedIn, unitLabels, type UnitSystem } from '../../lib/units.ts';
import { useEffectiveOrganizationId } from '../../lib/org-path.ts';
import { AccountFields, accountValues } from './account-fields.tsx';
import { organizationQuery, useRemoveLogo, useUpdateAccount, useUpdateSettings, useUploadLogo } from './api/organizations-api.ts';
import { IMAGE_HINT, IMAGE_MAX_BYTES, IMAGE_TYPES } from '../../lib/images.ts';
import { TraccarForwarding } from './traccar-forwarding.tsx';

const RULESETS = [
  { value: 'US_PROPERTY_70_8', label: 'US property-carrying, 70 hours / 8 days' },
  { value: 'US_PROPERTY_60_7', label: 'US property-carrying, 60 hours / 7 days' },
  { value: 'US_PASSENGER_70_8', label: 'US passenger-carrying, 70 hours / 8 days' },
  { value: 'US_PASSENGER_60_7', label: 'US passenger-carrying, 60 hours / 7 days' },
  { value: 'CA_SOUTH_CYCLE_1', label: 'Canada south of 60°N, cycle 1 (70 h / 7 days)' },
  { value: 'CA_SOUTH_CYCLE_2', label: 'Canada south of 60°N, cycle 2 (120 h / 14 days)' },
  { value: 'CA_NORTH_CYCLE_1', label: 'Canada north of 60°N, cycle 1 (80 h / 7 days)' },
  { value: 'CA_NORTH_CYCLE_2', label: 'Canada north of 60°N, cycle 2 (120 h / 14 days)' },
  { value: 'TX_INTRASTATE', label: 'Texas intrastate' },
  { value: 'CA_INTRASTATE', label: 'California intrastate' },
  { value: 'FL_INTRASTATE_70_7', label: 'Florida intrastate, 70 hours / 7 days' },
  { value: 'FL_INTRASTATE_80_8', label: 'Florida intrastate, 80 hours / 8 days' },
  { value: 'AK_PROPERTY_70_7', label: 'Alaska property-carrying, 70 hours / 7 days' },
  { value: 'AK_PROPERTY_80_8', label: 'Alaska property-carrying, 80 hours / 8 days' },
  { value: 'AK_PASSENGER_70_7', label: 'Alaska passenger-carrying, 70 hours / 7 days' },
  { value: 'AK_PASSENGER_80_8', label: 'Alaska passenger-carrying, 80 hours / 8 days' },
  { value: 'MX_NOM_087', label: 'Mexico NOM-087 (cargo, cross-border carriers)' },
];

/** The vehicle-status thresholds of the live map (minutes). */
const MINUTE_FIELDS = [
  { name: 'telematics.idleMinutes', label: 'Idle after (minutes)', description: 'Reporting but not moving for this long', min: 1, max: 1440 },
  { name: 'telematics.offlineMinutes', label: 'Offline after (minutes)', description: 'No report at all for this long', min: 2, max: 10080 },
  // Issue 32: waiting at a customer beyond this is detention (visits report, place page, notifications).
  {
    name: 'detention.freeMinutes',
    label: 'Detention free time (minutes)',
    description: 'Waiting at a customer longer than this is detention',
    min: 0,
    max: 1440,
  },
  // Issue 68: a fuel-card purchase is verified when the truck was near the station this close to its time.
  {
    name: 'fuelCards.windowMinutes',
    label: 'Fuel purchase time window (± minutes)',
    description: 'How near the purchase time the truck must have been at the station',
    min: 1,
    max: 180,
  },
] as const;

/** The contract's station radius bounds (metres). */
const RADIUS_M = { min: 25, max: 5000 };

/** "Station radius" in feet or metres as the form's units say, kept as the whole metres the API stores. */
function StationRadiusField({ form, units }: { form: ReturnType<typeof useZodForm<typeof organizationSettingsSchema>>; units: UnitSystem }) {
  const unit = units === 'IMPERIAL' ? 'ft' : 'm';
  const shown = (m: number) => Math.round(lengthFromM(m, units));
  return (
    <Controller
      control={form.control}
      name="fuelCards.radiusM"
      render={({ field: f, fieldState }) => (
        <NumberInput
          label={`Fuel station radius (${unit})`}
          description="A fuel-card purchase is verified when the truck was this close to the station"
          min={shown(RADIUS_M.min)}
          max={shown(RADIUS_M.max)}
          allowDecimal={false}
          value={typeof f.value === 'number' ? shown(f.value) : ''}
          onChange={(v) => f.onChange(Math.round(lengthToM(typeof v === 'number' ? v : Number(v) || 0, units)))}
          onBlur={f.onBlur}
          error={fieldState.error ? `Enter a whole number from ${shown(RADIUS_M.min)} to ${shown(RADIUS_M.max)} ${unit}` : undefined}
        />
      )}
    />
  );
}

/** The contract's speed limit bounds (km/h, whole numbers), as whole numbers of the unit shown. */
const SPEED_LIMIT_KMH = { min: 20, max: 200 };

/**
 * "Speeding above" in the units the form has chosen (mph or km/h), kept as the whole km/h the API
 * stores. A whole mph goes to the nearest km/h and back to the same mph (1 km/h is 0.62 mph).
 */
function SpeedLimitField({ form, units }: { form: ReturnType<typeof useZodForm<typeof organizationSettingsSchema>>; units: UnitSystem }) {
  const unit = unitLabels(units).speed;
  const min = Math.ceil(speedIn(SPEED_LIMIT_KMH.min, units));
  const max = Math.floor(speedIn(SPEED_LIMIT_KMH.max, units));
  return (
    <Controller
      control={form.control}
      name="telematics.speedLimitKmh"
      render={({ field: f, fieldState }) => (
        <NumberInput
          label={`Speeding above (${unit})`}
          description="Fleet performance counts each time a vehicle goes above this"
          min={min}
          max={max}
          allowDecimal={false}
          value={typeof f.value === 'number' ? Math.round(speedIn(f.value, units)) : ''}
          onChange={(v) => {
            const n = typeof v === 'number' ? v : Number(v) || 0;
            f.onChange(Math.round(kmhFromSpeed(n, units)));
          }}
          onBlur={f.onBlur}
          error={fieldState.error ? `Enter a whole number from ${min} to ${max} ${unit}` : undefined}
        />
      )}
    />
  );
}

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="lg">
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {description}
      </Text>
      {children}
    </Card>
  );
}

/** Discard and save buttons under an editable section: both wait for a change. */
function SaveBar({ dirty, saving, onDiscard, label }: { dirty: boolean; saving: boolean; onDiscard: () => void; label: string }) {
  return (
    <Group justify="flex-end" mt="md">
      <Button variant="default" onClick={onDiscard} disabled={!dirty}>
        Discard changes
      </Button>
      <Button type="submit" loading={saving} disabled={!dirty}>
        {label}
      </Button>
    </Group>
  );
}

function AccountForm({ org, canEdit }: { org: Organization; canEdit: boolean }) {
  const update = useUpdateAccount(org.id);
  const form = useZodForm(organizationAccountSchema, { defaultValues: accountValues(org) });
  const onSubmit = form.handleSubmit(async (values) => {
    const saved = await update.mutateAsync(values).catch(() => null);
    if (!saved) return;
    form.reset(accountValues(saved));
    notify({ type: 'success', title: 'Organization account saved', timeout: 4000 });
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Organization account">
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0 }}>
        <AccountFields form={form} />
      </fieldset>
      {canEdit && <SaveBar dirty={form.formState.isDirty} saving={update.isPending} onDiscard={() => form.reset()} label="Save account" />}
    </form>
  );
}

function LogoCard({ org, canEdit }: { org: Organization; canEdit: boolean }) {
  const upload = useUploadLogo(org.id);
  const remove = useRemoveLogo(org.id);
  const onFile = (file: File | null) => {
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) {
      notify({ type: 'alert', title: 'The logo must be a PNG, JPEG, GIF or WebP image', isClosable: true, timeout: 8000 });
      return;
    }
    if (file.size > IMAGE_MAX_BYTES) {
      notify({ type: 'alert', title: `The logo is ${(file.size / 1048576).toFixed(1)} MB; the limit is 2 MB`, isClosable: true, timeout: 8000 });
      return;
    }
    upload.mutate(file, { onSuccess: () => notify({ type: 'success', title: 'Logo updated', timeout: 4000 }) });
  };
  return (
    <Group gap="lg" wrap="wrap">
      <Card withBorder radius="md" w={160} h={100} p={8} style={{ display: 'grid', placeItems: 'center' }}>
        {org.logo ? (
          <Image src={org.logo} alt={`${org.name} logo`} fit="contain" mah={84} maw={144} />
        ) : (
          <Stack gap={2} align="center">
            <IconBuilding size={28} opacity={0.5} aria-hidden />
            <Text size="xs" c="dimmed">
              No logo
            </Text>
          </Stack>
        )}
      </Card>
      {canEdit && (
        <Stack gap="xs">
          <Group gap="xs">
            <FileButton onChange={onFile} accept={IMAGE_TYPES.join(',')}>
              {(props) => (
                <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                  {org.logo ? 'Replace logo' : 'Upload logo'}
                </Button>
              )}
            </FileButton>
            {org.logo && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                loading={remove.isPending}
                onClick={async () => {
                  if (
                    await confirmAction({
                      title: 'Remove the logo?',
                      message: 'The organization is shown without a logo until you upload another.',
                      confirmLabel: 'Remove',
                    })
                  )
                    remove.mutate();
                }}
              >
                Remove
              </Button>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {IMAGE_HINT}
          </Text>
        </Stack>
      )}
    </Group>
  );
}

function SettingsForm({ org, canEdit }: { org: Organization; canEdit: boolean }) {
  const update = useUpdateSettings(org.id);
  const form = useZodForm(organizationSettingsSchema, { defaultValues: org.settings, mode: 'onChange' });
  const onSubmit = form.handleSubmit(async (values) => {
    const saved = await update.mutateAsync(values).catch(() => null);
    if (!saved) return;
    form.reset(saved);
    notify({ type: 'success', title: 'Settings saved', timeout: 4000 });
  });
  const darkEnabled = form.watch('darkMode.isEnabled');
  const units = form.watch('units');
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Organization settings">
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0 }}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Controller
            control={form.control}
            name="units"
            render={({ field: f }) => (
              <Stack gap={4}>
                <Text size="sm" fw={500} id="units-label">
                  Units
                </Text>
                <SegmentedControl
                  aria-labelledby="units-label"
                  disabled={!canEdit}
                  data={[
                    { value: 'IMPERIAL', label: 'Imperial (mi, gal)' },
                    { value: 'METRIC', label: 'Metric (km, L)' },
                  ]}
                  value={f.value}
                  onChange={f.onChange}
                />
              </Stack>
            )}
          />
          <TextInput
            label="24-hour period starts at"
            type="time"
            description="Start of the carrier's log day, in the home-terminal time zone"
            {...field(form, 'periodStartTime')}
          />
          <Controller
            control={form.control}
            name="defaultRuleset"
            render={({ field: f, fieldState }) => (
              <Select
                label="Default HoS ruleset for new drivers"
                data={RULESETS}
                value={f.value}
                onChange={(v) => v && f.onChange(v)}
                allowDeselect={false}
                error={fieldState.error?.message}
              />
            )}
          />
          <div />
          {MINUTE_FIELDS.map((m) => (
            <Controller
              key={m.name}
              control={form.control}
              name={m.name}
              render={({ field: f, fieldState }) => (
                <NumberInput
                  label={m.label}
                  description={m.description}
                  min={m.min}
                  max={m.max}
                  allowDecimal={false}
                  value={f.value}
                  onChange={(v) => f.onChange(typeof v === 'number' ? v : Number(v) || 0)}
                  onBlur={f.onBlur}
                  error={fieldState.error?.message}
                />
              )}
            />
          ))}
          <SpeedLimitField form={form} units={units} />
          <StationRadiusField form={form} units={units} />
          {/* Issue 71: a paper is "expiring" on the compliance calendar this many days before it runs out. */}
          <Controller
            control={form.control}
            name="complianceExpiringDays"
            render={({ field: f, fieldState }) => (
              <NumberInput
                label="Papers expiring within (days)"
                description="Compliance shows a licence, medical certificate or registration as expiring this long before it runs out"
                min={COMPLIANCE_EXPIRING_DAYS.min}
                max={COMPLIANCE_EXPIRING_DAYS.max}
                allowDecimal={false}
                value={f.value}
                onChange={(v) => f.onChange(typeof v === 'number' ? v : Number(v) || 0)}
                onBlur={f.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="darkMode.isEnabled"
            render={({ field: f }) => (
              <Switch
                label="Dark mode available"
                description="Lets members switch to the dark theme; off forces the light theme"
                checked={f.value}
                onChange={(e) => f.onChange(e.currentTarget.checked)}
                disabled={!canEdit}
              />
            )}
          />
          <Controller
            control={form.control}
            name="darkMode.defaultTheme"
            render={({ field: f }) => (
              <Select
                label="Default theme"
                description="For users who have not picked one; a device set to dark shows dark either way"
                disabled={!canEdit || !darkEnabled}
                data={[
                  { value: 'light', label: 'Light' },
                  { value: 'dark', label: 'Dark' },
                ]}
                value={f.value}
                onChange={(v) => v && f.onChange(v)}
                allowDeselect={false}
              />
            )}
          />
        </SimpleGrid>
      </fieldset>
      {canEdit && <SaveBar dirty={form.formState.isDirty} saving={update.isPending} onDiscard={() => form.reset()} label="Save settings" />}
    </form>
  );
}

/** Organization account: company details, logo, units, HoS defaults, the dark-mode flag and telematics thresholds. */
/** The ELD data-transfer section (issue 45): the app composes it from the HoS feature. */
export type EldTransferSlot = ComponentType<{ orgId: string }>;

export default function OrganizationAccountPage({ eldTransfer: EldTransfer }: { eldTransfer?: EldTransferSlot } = {}) {
  const orgId = useEffectiveOrganizationId();
  const me = useAccessUser();
  const q = useQuery({ ...organizationQuery(orgId ?? ''), enabled: !!orgId });
  const canEdit = hasPermission(me, 'ORG_UPDATE');
  return (
    <>
      <PageHeader
        title="Organization account"
        description="Your company as it appears on logs, reports and roadside inspections."
        breadcrumbs={[
          { label: 'Settings', to: '/settings' },
          { label: 'Organization Settings', to: '/settings/organization-settings' },
          { label: 'Organization account' },
        ]}
      />
      <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
        {q.data && (
          <Stack gap="lg">
            {q.data.status === 'INACTIVE' && (
              <Alert color="yellow" icon={<IconInfoCircle size={18} />} title="This organization is deactivated">
                Its members cannot sign in. A super administrator can reactivate it.
              </Alert>
            )}
            <Section title="Company" description="Legal name, carrier numbers, address and home-terminal time zone.">
              <AccountForm key={q.data.updatedAt} org={q.data} canEdit={canEdit} />
            </Section>
            <Section title="Logo" description="Shown in the header and on printed logs and reports.">
              <LogoCard org={q.data} canEdit={canEdit} />
            </Section>
            <Section
              title="Preferences"
              description="Units, hours-of-service defaults, theme, vehicle status thresholds, detention free time, fuel-card checks and when papers count as expiring."
            >
              <SettingsForm key={q.data.updatedAt} org={q.data} canEdit={canEdit} />
            </Section>
            {EldTransfer && (
              <Section
                title="ELD data transfer (FMCSA)"
                description="How drivers hand their records to an officer: FMCSA's web service and encrypted e-mail, and the weekly self-check."
              >
                <EldTransfer orgId={q.data.id} />
              </Section>
            )}
            {canEdit && (
              <Section title="Device forwarding (Traccar)" description="Any device a Traccar server decodes, forwarded here with this organization's token.">
                <TraccarForwarding orgId={q.data.id} />
              </Section>
            )}
          </Stack>
        )}
      </DataState>
    </>
  );
}
