import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Checkbox, CopyButton, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconMail, IconPlus } from '@tabler/icons-react';
import type { ShareLink, ShareLinkCreated, ShareLinkStatus } from '@fleet/api-contract';
import { ApiError } from '../lib/api-client.ts';
import { formatShortDateTime, fromZoneInput, toZoneInput, useViewerZone } from '../lib/dates.ts';
import { fieldMessages } from '../lib/registry-api.ts';
import { confirmAction } from './confirm-dialog.tsx';
import { DataState } from './data-state.tsx';

// Customer tracking links (issue 69), for a load or a vehicle: make one (its url shows once, to copy
// or e-mail), list them with their views, revoke one. The features own the calls and pass them in.

export interface ShareLinksModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** What the customer will see, in a sentence. */
  description: string;
  mailSubject: string;
  /** The e-mail's text around the url. */
  mailBody: (url: string) => string;
  links: { data?: { items: ShareLink[] }; isLoading: boolean; error: unknown; refetch: () => unknown };
  /** Whether this user may make and revoke links (else the list only). */
  canChange: boolean;
  /** A vehicle's link must end within `maxDays`; a load's may leave it to the default. */
  expiry: { required: false; defaultText: string } | { required: true; maxDays: number };
  onCreate: (body: { label?: string; expiresAt?: string; showTemperature?: boolean }) => Promise<ShareLinkCreated>;
  /**
   * A load's links may show its reefer temperature (issue 73): the words of the choice, off by
   * default, and of the badge on a link that shows it. Left out: no such choice (a vehicle's links).
   */
  temperature?: { label: string; description: string; badge: string };
  creating: boolean;
  onRevoke: (linkId: string) => Promise<unknown>;
}

const STATUS: Record<ShareLinkStatus, { label: string; color: string }> = {
  ACTIVE: { label: 'Active', color: 'green' },
  EXPIRED: { label: 'Expired', color: 'gray' },
  REVOKED: { label: 'Revoked', color: 'red' },
};

const HOUR = 3_600_000;
/** A vehicle link's first suggestion: tomorrow at this hour, on the hour. */
const suggestedEnd = () => new Date(Math.ceil((Date.now() + 24 * HOUR) / HOUR) * HOUR).toISOString();

export function ShareLinksModal(props: ShareLinksModalProps) {
  const { opened, onClose, title, description, links, canChange } = props;
  const [created, setCreated] = useState<ShareLinkCreated | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} size="lg">
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          {description}
        </Text>
        {canChange && (created ? <NewLink link={created} {...props} onAnother={() => setCreated(null)} /> : <CreateForm {...props} onCreated={setCreated} />)}
        <Stack gap="xs">
          <Title order={3} fz="sm">
            Links
          </Title>
          <DataState isLoading={links.isLoading} error={links.error} onRetry={() => void links.refetch()}>
            {links.data &&
              (links.data.items.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No links yet.
                </Text>
              ) : (
                <LinkList items={links.data.items} {...props} />
              ))}
          </DataState>
        </Stack>
      </Stack>
    </Modal>
  );
}

function CreateForm({ expiry, onCreate, creating, onCreated, temperature }: ShareLinksModalProps & { onCreated: (l: ShareLinkCreated) => void }) {
  const zone = useViewerZone();
  const [label, setLabel] = useState('');
  const [showTemperature, setShowTemperature] = useState(false);
  const [expires, setExpires] = useState(() => (expiry.required ? toZoneInput(suggestedEnd(), zone) : ''));
  const [errors, setErrors] = useState<{ label?: string; expiresAt?: string; other?: string }>({});
  const max = expiry.required ? toZoneInput(new Date(Date.now() + expiry.maxDays * 24 * HOUR).toISOString(), zone) : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const at = expires ? fromZoneInput(expires, zone) : null;
    // The server checks the same; saying it here spares a round trip.
    if (expiry.required && !at) return setErrors({ expiresAt: 'Choose when the link ends' });
    if (expires && !at) return setErrors({ expiresAt: 'Enter a date and time' });
    if (at && Date.parse(at) <= Date.now()) return setErrors({ expiresAt: 'The end must be in the future' });
    if (at && expiry.required && Date.parse(at) > Date.now() + expiry.maxDays * 24 * HOUR)
      return setErrors({ expiresAt: `At most ${expiry.maxDays} days from now` });
    setErrors({});
    try {
      onCreated(
        await onCreate({ ...(label.trim() ? { label: label.trim() } : {}), ...(at ? { expiresAt: at } : {}), ...(temperature ? { showTemperature } : {}) }),
      );
      setLabel('');
      setShowTemperature(false);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.body) {
        const byField = Object.fromEntries(fieldMessages(err.body.technicalMessage ?? '').map((m) => [m.path, m.message]));
        setErrors(byField.label || byField.expiresAt ? byField : { other: err.body.message });
      } else setErrors({ other: err instanceof Error ? err.message : 'The link could not be made' });
    }
  };

  return (
    <Paper withBorder radius="md" p="md" component="form" onSubmit={(e: FormEvent) => void submit(e)} noValidate aria-label="New link">
      <Stack gap="sm">
        <Group grow align="flex-start" gap="sm" wrap="wrap" style={{ rowGap: 'var(--mantine-spacing-sm)' }}>
          <TextInput
            label="Label"
            description="For you: who the link is for"
            placeholder="e.g. Acme receiving"
            maxLength={80}
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            error={errors.label}
            miw={200}
          />
          <TextInput
            type="datetime-local"
            label="Expires"
            description={expiry.required ? `At most ${expiry.maxDays} days ahead` : expiry.defaultText}
            required={expiry.required}
            value={expires}
            max={max}
            onChange={(e) => setExpires(e.currentTarget.value)}
            error={errors.expiresAt}
            miw={200}
          />
        </Group>
        {temperature && (
          <Checkbox
            label={temperature.label}
            description={temperature.description}
            checked={showTemperature}
            onChange={(e) => setShowTemperature(e.currentTarget.checked)}
          />
        )}
        {errors.other && (
          <Alert color="red" py={6} role="alert">
            {errors.other}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" leftSection={<IconPlus size={16} />} loading={creating}>
            Create link
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function NewLink({ link, mailSubject, mailBody, onAnother }: ShareLinksModalProps & { link: ShareLinkCreated; onAnother: () => void }) {
  const mailto = `mailto:?subject=${encodeURIComponent(mailSubject)}&body=${encodeURIComponent(mailBody(link.url))}`;
  return (
    <Paper withBorder radius="md" p="md" bg="var(--mantine-color-default-hover)" data-testid="new-share-link">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Link ready · works until {formatShortDateTime(link.expiresAt)}
        </Text>
        <TextInput
          value={link.url}
          readOnly
          aria-label="Tracking link"
          onFocus={(e) => e.currentTarget.select()}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <Text size="xs" c="dimmed">
          This is the only time the link is shown: copy or send it now.
        </Text>
        <Group gap="xs">
          <CopyButton value={link.url}>
            {({ copied, copy }) => (
              <Button onClick={copy} color={copied ? 'teal' : undefined} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}>
                {copied ? 'Copied' : 'Copy link'}
              </Button>
            )}
          </CopyButton>
          <Button component="a" href={mailto} variant="default" leftSection={<IconMail size={16} />}>
            E-mail
          </Button>
          <Button variant="subtle" onClick={onAnother}>
            Make another
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function LinkList({ items, canChange, onRevoke, temperature }: ShareLinksModalProps & { items: ShareLink[] }) {
  const [revoking, setRevoking] = useState<string | null>(null);
  const revoke = async (l: ShareLink) => {
    const ok = await confirmAction({
      title: `Revoke ${l.label ? `“${l.label}”` : 'this link'}?`,
      message: 'Whoever has the link sees “This link has expired” from now on. This cannot be undone; make a new link to share again.',
      confirmLabel: 'Revoke',
    });
    if (!ok) return;
    setRevoking(l.id);
    try {
      await onRevoke(l.id);
    } catch {
      // the API client toasted it
    } finally {
      setRevoking(null);
    }
  };
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Tracking links">
      {items.map((l) => (
        <Paper key={l.id} withBorder radius="md" p="sm" component="li" data-testid="share-link-row" data-status={l.status}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap={6} wrap="wrap">
                <Text fw={600} size="sm" truncate>
                  {l.label ?? 'Untitled link'}
                </Text>
                <Badge size="sm" variant="light" color={STATUS[l.status].color}>
                  {STATUS[l.status].label}
                </Badge>
                {temperature && l.showTemperature && (
                  <Badge size="sm" variant="light" color="cyan">
                    {temperature.badge}
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                {l.status === 'REVOKED' && l.revokedAt
                  ? `Revoked ${formatShortDateTime(l.revokedAt)}`
                  : `${l.status === 'EXPIRED' ? 'Expired' : 'Expires'} ${formatShortDateTime(l.expiresAt)}`}
                {' · '}Made {formatShortDateTime(l.createdAt)}
                {l.createdBy ? ` by ${l.createdBy}` : ''}
              </Text>
              <Text size="xs" c="dimmed">
                {l.viewCount === 0
                  ? 'Not viewed yet'
                  : `Viewed ${l.viewCount} ${l.viewCount === 1 ? 'time' : 'times'}${l.lastViewedAt ? `, last ${formatShortDateTime(l.lastViewedAt)}` : ''}`}
              </Text>
            </Stack>
            {canChange && l.status === 'ACTIVE' && (
              <Button
                size="xs"
                variant="light"
                color="red"
                loading={revoking === l.id}
                onClick={() => void revoke(l)}
                aria-label={`Revoke ${l.label ?? 'link'}`}
                style={{ flexShrink: 0 }}
              >
                Revoke
              </Button>
            )}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
