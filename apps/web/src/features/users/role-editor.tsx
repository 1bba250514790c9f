import { Alert, Badge, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { IconInfoCircle } from '@tabler/icons-react';
import { PERMISSION_AREAS, roleInputSchema, type OrganizationRole } from '@fleet/api-contract';
import { togglePermission } from './permission-toggle.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useAccessUser } from '../../lib/control-store.ts';
import { useSaveRole } from './api/users-api.ts';

const LABEL = new Map(PERMISSION_AREAS.flatMap((a) => a.permissions.map((p) => [p.code as string, p.label] as const)));

/** Create or edit a custom role: name, description and the permission checklist grouped by area. */
export function RoleEditor({ orgId, role, onDone }: { orgId: string; role: OrganizationRole | null; onDone: () => void }) {
  const me = useAccessUser();
  const held = new Set(me?.permissions ?? []);
  const save = useSaveRole(orgId);
  const form = useZodForm(roleInputSchema, {
    defaultValues: { name: role?.name ?? '', description: role?.description ?? '', permissions: role?.permissions ?? [] },
  });
  const onSubmit = form.handleSubmit(async (input) => {
    const saved = await save.mutateAsync({ roleId: role?.id, input }).catch(() => null);
    if (!saved) return;
    notify({ type: 'success', title: `Role ${saved.name} ${role ? 'saved' : 'created'}`, timeout: 4000 });
    onDone();
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label={role ? 'Edit role' : 'New role'}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="Name" withAsterisk placeholder="e.g. Dispatcher" {...field(form, 'name')} />
          <Textarea label="Description" autosize minRows={1} maxRows={3} {...field(form, 'description')} />
        </SimpleGrid>
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} p="xs">
          <Text size="sm">Ticking a permission also ticks what it needs (editing needs listing). You can only grant permissions you hold.</Text>
        </Alert>
        <Controller
          control={form.control}
          name="permissions"
          render={({ field: f, fieldState }) => {
            const value = f.value;
            return (
              <Stack gap="sm">
                <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
                  {PERMISSION_AREAS.map((area) => {
                    const codes = area.permissions.map((p) => p.code as string);
                    const ticked = codes.filter((c) => value.includes(c)).length;
                    return (
                      <Paper key={area.area} withBorder p="sm" radius="md" role="group" aria-label={area.label}>
                        <Group justify="space-between" mb={8} wrap="nowrap">
                          <Title order={3} fz="sm">
                            {area.label}
                          </Title>
                          <Badge size="sm" variant={ticked ? 'light' : 'outline'} color={ticked ? 'blue' : 'gray'}>
                            {ticked}/{codes.length}
                          </Badge>
                        </Group>
                        <Stack gap={8}>
                          {area.permissions.map((p) => {
                            const canGrant = held.has(p.code);
                            return (
                              <Checkbox
                                key={p.code}
                                checked={value.includes(p.code)}
                                disabled={!canGrant}
                                onChange={(e) => f.onChange(togglePermission(value, p.code, e.currentTarget.checked))}
                                label={p.label}
                                description={
                                  !canGrant
                                    ? 'You do not hold this permission'
                                    : p.requires.length
                                      ? `${p.description}. Needs ${p.requires.map((r) => LABEL.get(r) ?? r).join(', ')}`
                                      : p.description
                                }
                              />
                            );
                          })}
                        </Stack>
                      </Paper>
                    );
                  })}
                </SimpleGrid>
                {fieldState.error && (
                  <Text c="red" size="sm" role="alert">
                    {fieldState.error.message}
                  </Text>
                )}
                <Text size="sm" c="dimmed">
                  {value.length} permissions selected
                </Text>
              </Stack>
            );
          }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {role ? 'Save role' : 'Create role'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
