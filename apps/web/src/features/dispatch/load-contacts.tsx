import { useEffect, useState, type FormEvent } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Checkbox, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  LOAD_CONTACT_ROLE_LABELS,
  LOAD_CONTACT_ROLES,
  LOAD_CONTACTS_MAX,
  LOAD_NOTICE_KINDS,
  LOAD_NOTICE_LABELS,
  type LoadContact,
  type LoadContactInput,
  type LoadContactRole,
  type LoadNoticeKind,
} from '@fleet/api-contract/tracking';
import { DataState } from '../../components/data-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatShortDateTime } from '../../lib/dates.ts';
import { notify } from '../../lib/notifications-store.ts';
import { fieldMessages } from '../../lib/registry-api.ts';
import { saveLoadContacts, useLoadContacts, useLoadMutation } from './dispatch-api.ts';

// A load's contacts (issue 69): the shipper, consignee or broker who get its notices by e-mail, each
// with the notices they chose. Saved as a whole (PUT); the server checks the fields and its 400
// names each bad one (`contacts.1.email: …`), shown under that field.

interface Row extends LoadContactInput {
  /** The saved contact this row edits (the server matches by e-mail), for what was sent and the unsubscribe. */
  key: string;
}

const DEFAULT_NOTICES: LoadNoticeKind[] = ['LINK', 'ARRIVING', 'DELIVERED', 'LATE'];
let nextKey = 0;
const rowsOf = (items: LoadContact[]): Row[] => items.map((c) => ({ key: c.id, role: c.role, name: c.name, email: c.email, notices: [...c.notices] }));
const inputOf = (rows: Row[]): LoadContactInput[] => rows.map(({ role, name, email, notices }) => ({ role, name, email, notices }));

export function LoadContactsCard({ loadId, canEdit }: { loadId: string; canEdit: boolean }) {
  const q = useLoadContacts(loadId);
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="load-contacts-title">
      <Title order={2} fz="md" mb={4} id="load-contacts-title">
        Customer contacts
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        Who hears about this load by e-mail: the tracking link when it starts, arrivals, delivery and delays. Each e-mail has a one-click unsubscribe.
      </Text>
      <DataState isLoading={q.isLoading} error={q.error} onRetry={() => void q.refetch()}>
        {q.data && <ContactsEditor loadId={loadId} saved={q.data.items} canEdit={canEdit} />}
      </DataState>
    </Card>
  );
}

function ContactsEditor({ loadId, saved, canEdit }: { loadId: string; saved: LoadContact[]; canEdit: boolean }) {
  const [rows, setRows] = useState<Row[]>(() => rowsOf(saved));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  const save = useLoadMutation(saveLoadContacts);
  const dirty = JSON.stringify(inputOf(rows)) !== JSON.stringify(inputOf(rowsOf(saved)));
  // Another save (or a refetch) brings new server state: show it unless this user is editing.
  useEffect(() => {
    if (!dirty) setRows(rowsOf(saved));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the server's list changes
  }, [saved]);
  const byKey = new Map(saved.map((c) => [c.id, c]));

  const update = (i: number, patch: Partial<LoadContactInput>) => {
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    // A field's server message goes when the field is changed.
    setErrors((es) => Object.fromEntries(Object.entries(es).filter(([k]) => !Object.keys(patch).some((f) => k === `contacts.${i}.${f}`))));
  };
  const remove = (i: number) => {
    setRows((rs) => rs.filter((_, j) => j !== i));
    setErrors({});
  };
  const add = () => setRows((rs) => [...rs, { key: `new-${nextKey++}`, role: 'CONSIGNEE', name: '', email: '', notices: [...DEFAULT_NOTICES] }]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setOther(null);
    save.mutate(
      { id: loadId, contacts: inputOf(rows) },
      {
        onSuccess: (res) => {
          setErrors({});
          setRows(rowsOf(res.items));
          notify({ type: 'success', title: 'Contacts saved', timeout: 3000 });
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 400 && err.body) {
            const found = fieldMessages(err.body.technicalMessage ?? '');
            setErrors(Object.fromEntries(found.map((m) => [m.path, m.message])));
            // A message about the list itself ("at most 10 contacts") has no field.
            if (!found.some((m) => /^contacts\.\d+\./.test(m.path))) setOther(err.body.message);
            const first = found[0]?.path.replace(/\./g, '-');
            if (first) document.getElementById(first)?.focus();
          } else setOther(err instanceof Error ? err.message : 'The contacts could not be saved');
        },
      },
    );
  };

  if (!canEdit) {
    return rows.length === 0 ? (
      <Text size="sm" c="dimmed">
        No contacts.
      </Text>
    ) : (
      <Stack gap="xs">
        {rows.map((r) => (
          <Paper key={r.key} withBorder radius="md" p="sm">
            <Text size="sm" fw={600}>
              {r.name} · {LOAD_CONTACT_ROLE_LABELS[r.role]}
            </Text>
            <Text size="xs" c="dimmed">
              {r.email}
            </Text>
            <Delivery contact={byKey.get(r.key)} />
          </Paper>
        ))}
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Customer contacts">
      <Stack gap="sm">
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            No contacts yet. Add the shipper, consignee or broker to e-mail them about this load.
          </Text>
        )}
        {rows.map((r, i) => {
          const err = (f: string) => errors[`contacts.${i}.${f}`];
          return (
            <Paper key={r.key} withBorder radius="md" p="sm" data-testid="load-contact">
              <Stack gap="xs">
                <Group justify="space-between" wrap="nowrap" align="center">
                  <Text size="sm" fw={600}>
                    Contact {i + 1}
                  </Text>
                  <ActionIcon variant="subtle" color="red" onClick={() => remove(i)} aria-label={`Remove contact ${i + 1}`}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
                  <NativeSelect
                    id={`contacts-${i}-role`}
                    label="Role"
                    value={r.role}
                    data={LOAD_CONTACT_ROLES.map((v) => ({ value: v, label: LOAD_CONTACT_ROLE_LABELS[v] }))}
                    onChange={(e) => update(i, { role: e.currentTarget.value as LoadContactRole })}
                    error={err('role')}
                  />
                  <TextInput
                    id={`contacts-${i}-name`}
                    label="Name"
                    value={r.name}
                    onChange={(e) => update(i, { name: e.currentTarget.value })}
                    error={err('name')}
                  />
                </SimpleGrid>
                <TextInput
                  id={`contacts-${i}-email`}
                  label="E-mail"
                  type="email"
                  value={r.email}
                  onChange={(e) => update(i, { email: e.currentTarget.value })}
                  error={err('email')}
                />
                <Checkbox.Group label="Notices" value={r.notices} onChange={(v) => update(i, { notices: v as LoadNoticeKind[] })} error={err('notices')}>
                  <Group gap="md" mt={6} style={{ rowGap: 8 }}>
                    {LOAD_NOTICE_KINDS.map((k) => (
                      <Checkbox key={k} value={k} label={LOAD_NOTICE_LABELS[k]} size="sm" />
                    ))}
                  </Group>
                </Checkbox.Group>
                <Delivery contact={byKey.get(r.key)} />
              </Stack>
            </Paper>
          );
        })}
        {other && (
          <Alert color="red" py={6} role="alert">
            {other}
          </Alert>
        )}
        <Group justify="space-between" gap="xs">
          <Button variant="default" leftSection={<IconPlus size={16} />} onClick={add} disabled={rows.length >= LOAD_CONTACTS_MAX}>
            Add contact
          </Button>
          <Group gap="xs">
            {dirty && (
              <Button
                variant="subtle"
                onClick={() => {
                  setRows(rowsOf(saved));
                  setErrors({});
                  setOther(null);
                }}
              >
                Discard changes
              </Button>
            )}
            <Button type="submit" loading={save.isPending} disabled={!dirty}>
              Save contacts
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/** What a saved contact was sent, and whether they unsubscribed. */
function Delivery({ contact }: { contact: LoadContact | undefined }) {
  if (!contact) return null;
  return (
    <Group gap={6} wrap="wrap" data-testid="contact-delivery">
      {contact.unsubscribedAt && (
        <Badge color="red" variant="light" size="sm">
          Unsubscribed {formatShortDateTime(contact.unsubscribedAt)}
        </Badge>
      )}
      <Text size="xs" c="dimmed">
        {contact.sent.length === 0
          ? 'Nothing sent yet'
          : `Sent: ${contact.sent
              .map((s) => `${LOAD_NOTICE_LABELS[s.kind]}${s.stopSeq !== null ? ` (stop ${s.stopSeq})` : ''}, ${formatShortDateTime(s.sentAt)}`)
              .join('; ')}`}
      </Text>
    </Group>
  );
}
