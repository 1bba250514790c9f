import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  FileButton,
  Group,
  NumberInput,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertTriangle, IconCamera, IconCheck, IconChecks, IconX } from '@tabler/icons-react';
import { odometerForDisplay, odometerKmFromInput } from '@fleet/api-contract/units';
import type { Dvir, DvirKind } from '@fleet/api-contract';
import { ApiError, NetworkError } from '../../../lib/api-client.ts';
import { isOnline } from '../../../lib/online.ts';
import { newKey, sendRecord, type OutboxUpload } from '../../../lib/outbox.ts';
import { fieldMessages } from '../../../lib/registry-api.ts';
import { errorWords, fieldWords } from '../../../i18n/error-words.ts';
import { unitLabels, type UnitSystem } from '../../../lib/units.ts';
import { dvirPaths, imageUploadError, inspectionItemsQuery, uploadDvirImage } from '../dvir-api.ts';
import {
  EMPTY_ANSWER,
  MAX_PHOTOS,
  allPass,
  answeredCount,
  formItems,
  itemWords,
  itemsBody,
  localErrors,
  placeErrors,
  type Answer,
  type FormItem,
  type Unit,
} from './dvir-items.ts';
import { kindNamed } from './dvir-report.tsx';
import { photoForUpload } from '../../../lib/photo-resize.ts';
import { SignatureField, signaturePng, signatureProblem, useSignature } from './signature-field.tsx';
import classes from './dvir-driver.module.css';

// The driver's inspection (49 CFR 396.11): every listed item on the vehicle and each attached trailer,
// Pass or Defect; a defect with a note, photos and whether it affects safe operation; odometer and
// place prefilled; signed with a name and a drawn or typed signature. Long on a phone, so: a progress
// count that stays in view, "All pass" for what is left, and big buttons.

export interface DvirFormProps {
  orgId: string;
  kind: DvirKind;
  vehicle: Unit;
  /** The trailers on today's log; each can be left out if it is no longer attached. */
  trailers: Unit[];
  driverName: string;
  units: UnitSystem;
  /** The vehicle's odometer in km (prefilled in the organization's unit), null when unknown. */
  odometerKm: number | null;
  /** The place prefilled (the latest record's), empty when unknown: the server then names it from the truck's position. */
  location: string;
  onSigned: (dvir: Dvir) => void;
  /** Signed without signal: kept on the phone and sent when the network returns (issue 44). */
  onKept: (kind: DvirKind, madeAt: number) => void;
  onCancel: () => void;
}

/** Photos taken without signal, by the placeholder id the form holds until the outbox uploads them. */
const keptPhotos = new Map<string, { blob: Blob; name: string }>();
const LOCAL = 'local-photo:';

/** The report's own fields a 400 may name (shown under each). */
const FIELDS = ['odometer', 'location', 'remarks', 'signature', 'signature.name', 'signature.imageId'] as const;

export function DvirForm({ orgId, kind, vehicle, trailers, driverName, units, odometerKm, location, onSigned, onKept, onCancel }: DvirFormProps) {
  const { t } = useTranslation();
  const own = useQuery(inspectionItemsQuery(orgId));
  const [trailerIds, setTrailerIds] = useState<string[]>(trailers.map((t) => t.id));
  const attached = useMemo(() => trailers.filter((t) => trailerIds.includes(t.id)), [trailers, trailerIds]);
  const items = useMemo(() => formItems(vehicle, attached, own.data?.items ?? []), [vehicle, attached, own.data]);
  const [answers, setAnswers] = useState<Record<string, Answer>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [odometer, setOdometer] = useState<number | string>(odometerKm === null ? '' : odometerForDisplay(odometerKm, units));
  const [place, setPlace] = useState(location);
  const [remarks, setRemarks] = useState('');
  const signature = useSignature(driverName);
  const [sending, setSending] = useState(false);
  const top = useRef<HTMLDivElement>(null);

  const done = answeredCount(items, answers);
  const set = (key: string, change: Partial<Answer>) => {
    setAnswers((a) => ({ ...a, [key]: { ...EMPTY_ANSWER, ...a[key], ...change } }));
    setErrors(({ [key]: _, ...rest }) => rest);
  };
  const clearError = (key: string) => setErrors(({ [key]: _, ...rest }) => rest);
  const focusFirstError = (found: Record<string, string>) => {
    const first = items.find((i) => found[i.key]);
    const el = first ? document.querySelector(`[data-item-key="${CSS.escape(first.key)}"]`) : document.querySelector('[data-form-error]');
    el?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    if (!first && found['']) top.current?.scrollIntoView({ block: 'start' });
  };

  const submit = async () => {
    const found = localErrors(items, answers, { choose: t('inspection.choose'), describe: t('inspection.describe') });
    const sig = signatureProblem(signature, t);
    if (sig) found[sig.field === 'name' ? 'signature.name' : 'signature.drawing'] = sig.message;
    if (typeof odometer === 'number' && odometer < 0) found.odometer = t('inspection.odometerNegative');
    setErrors(found);
    if (Object.keys(found).length) {
      focusFirstError(found);
      return;
    }
    setSending(true);
    // Signed now: sent now or when the network returns, the report carries this time.
    const madeAt = Date.now();
    try {
      const paths = dvirPaths(orgId);
      const png = await signaturePng(signature);
      // The drawn signature and the photos taken offline go up first; their ids replace these placeholders.
      const uploads: OutboxUpload[] = png ? [{ placeholder: `${LOCAL}signature`, path: paths.images, blob: png, name: 'signature.png' }] : [];
      const body = {
        assetId: vehicle.id,
        trailerIds: attached.map((t) => t.id),
        kind,
        odometer: typeof odometer === 'number' ? odometerKmFromInput(odometer, units) : null,
        location: place.trim() || null,
        items: itemsBody(items, answers, vehicle.id),
        signature: { name: signature.name.trim(), imageId: png ? `${LOCAL}signature` : null },
        remarks: remarks.trim() || null,
        recordedAt: new Date(madeAt).toISOString(),
      };
      for (const i of body.items) {
        for (const id of i.imageIds ?? []) {
          const kept = keptPhotos.get(id);
          if (kept) uploads.push({ placeholder: id, path: paths.images, blob: kept.blob, name: kept.name });
        }
      }
      const out = await sendRecord<Dvir>({
        kind: 'DVIR',
        madeAt,
        label: t('inspection.outboxLabel', { inspection: kindNamed(t, kind), unit: vehicle.unitNumber }),
        path: paths.reports,
        body,
        uploads,
      });
      if (out.sent) onSigned(out.result);
      else onKept(kind, madeAt);
    } catch (err) {
      const body = err instanceof ApiError && err.status === 400 ? err.body : null;
      const pairs = body ? fieldMessages(body.technicalMessage ?? '').map((p) => ({ ...p, message: fieldWords(t, body, p.message) })) : [];
      const placed = pairs.length ? placeErrors(pairs, items, FIELDS) : {};
      if (!Object.keys(placed).length) placed[''] = err instanceof ApiError ? errorWords(t, err) : t('inspection.notSent');
      else if (err instanceof ApiError && err.body && !placed['']) placed[''] = errorWords(t, err);
      setErrors(placed);
      focusFirstError(placed);
    } finally {
      setSending(false);
    }
  };

  const groups = [vehicle, ...attached].map((u) => ({ unit: u, items: items.filter((i) => i.unit.id === u.id) }));
  return (
    <Stack gap="md" data-testid="dvir-form" ref={top}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Title order={2} size="h3">
            {kindNamed(t, kind)}
          </Title>
          <Text size="sm" c="dimmed">
            {t('inspection.checkEvery', { units: [vehicle, ...attached].map((u) => u.unitNumber).join(t('inspection.and')) })}
          </Text>
        </div>
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </Group>
      {errors[''] && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('inspection.notSigned')} data-form-error>
          {errors['']}
        </Alert>
      )}
      {trailers.length > 0 && (
        <Checkbox.Group label={t('inspection.trailersAttached')} description={t('inspection.leaveOut')} value={trailerIds} onChange={setTrailerIds}>
          <Group gap="lg" mt={6}>
            {trailers.map((x) => (
              <Checkbox key={x.id} size="md" value={x.id} label={t('inspection.trailer', { unit: x.unitNumber })} />
            ))}
          </Group>
        </Checkbox.Group>
      )}
      <div className={classes.progressBar}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <div style={{ flex: 1 }}>
            <Text size="sm" fw={600} data-testid="dvir-progress" aria-live="polite">
              {t('inspection.progress', { done, total: items.length })}
            </Text>
            <Progress
              value={items.length ? (done / items.length) * 100 : 0}
              color={done === items.length ? 'green' : 'blue'}
              size="sm"
              mt={4}
              aria-label={t('inspection.itemsChecked')}
            />
          </div>
          <Button
            size="md"
            variant="light"
            color="green"
            leftSection={<IconChecks size={18} aria-hidden />}
            disabled={done === items.length}
            onClick={() => setAnswers((a) => allPass(items, a))}
          >
            {done === 0 ? t('inspection.allPass') : t('inspection.restPass')}
          </Button>
        </Group>
      </div>
      {groups.map((g) => (
        <Stack key={g.unit.id} gap="xs">
          <Title order={3} size="h5" className={classes.unitHeading}>
            {g.unit.id === vehicle.id ? t('inspection.vehicle', { unit: g.unit.unitNumber }) : t('inspection.trailer', { unit: g.unit.unitNumber })}
          </Title>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xs" verticalSpacing="xs">
            {g.items.map((i) => (
              <ItemRow
                key={i.key}
                orgId={orgId}
                item={i}
                answer={answers[i.key] ?? EMPTY_ANSWER}
                error={errors[i.key]}
                onChange={(c) => set(i.key, c)}
                onError={(m) => setErrors((e) => ({ ...e, [i.key]: m }))}
                onClearError={() => clearError(i.key)}
              />
            ))}
          </SimpleGrid>
        </Stack>
      ))}
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <NumberInput
            label={t('inspection.odometer', { unit: unitLabels(units).distance })}
            size="md"
            min={0}
            thousandSeparator=","
            decimalScale={1}
            value={odometer}
            onChange={(v) => {
              setOdometer(v);
              clearError('odometer');
            }}
            error={errors.odometer}
            description={odometerKm === null ? t('inspection.odometerEmpty') : t('inspection.odometerFrom')}
          />
          <TextInput
            label={t('inspection.location')}
            size="md"
            maxLength={200}
            value={place}
            onChange={(e) => {
              setPlace(e.currentTarget.value);
              clearError('location');
            }}
            error={errors.location}
            description={location ? undefined : t('inspection.locationEmpty')}
          />
          <Textarea
            label={t('inspection.remarks')}
            size="md"
            autosize
            minRows={2}
            maxLength={2000}
            value={remarks}
            onChange={(e) => setRemarks(e.currentTarget.value)}
            error={errors.remarks}
          />
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('inspection.signTitle')}
          </Title>
          <Text size="sm">{t('inspection.statement')}</Text>
          <SignatureField
            state={signature}
            id="dvir-signature"
            nameError={errors['signature.name']}
            drawingError={errors['signature.drawing'] ?? errors['signature.imageId'] ?? errors.signature}
          />
        </Stack>
      </Paper>
      <Button size="lg" fullWidth loading={sending} onClick={() => void submit()} leftSection={<IconCheck size={20} aria-hidden />}>
        {t('inspection.signReport')}
      </Button>
    </Stack>
  );
}

interface ItemRowProps {
  orgId: string;
  item: FormItem;
  answer: Answer;
  error?: string;
  onChange: (change: Partial<Answer>) => void;
  onError: (message: string) => void;
  onClearError: () => void;
}

/** One item: Pass / Defect; a defect opens its note, safety switch and photos. */
function ItemRow({ orgId, item, answer, error, onChange, onError, onClearError }: ItemRowProps) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  // Each photo is shown by the signed link its upload answered (an <img> sends no token).
  const [photoUrls, setPhotoUrls] = useState<Record<string, string>>({});
  const label = itemWords(t, item);
  const name = item.trailer ? t('inspection.itemOnTrailer', { item: label, unit: item.unit.unitNumber }) : label;
  const addPhoto = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    onClearError();
    // Without signal the photo stays on the phone and goes up with the report (issue 44).
    let photo: Blob = file;
    const keep = () => {
      const id = `${LOCAL}${newKey()}`;
      keptPhotos.set(id, { blob: photo, name: file.name });
      setPhotoUrls((urls) => ({ ...urls, [id]: URL.createObjectURL(photo) }));
      onChange({ imageIds: [...answer.imageIds, id] });
    };
    try {
      photo = await photoForUpload(file);
      if (!isOnline()) keep();
      else {
        const { id, url } = await uploadDvirImage(orgId, photo, file.name);
        setPhotoUrls((urls) => ({ ...urls, [id]: url }));
        onChange({ imageIds: [...answer.imageIds, id] });
      }
    } catch (err) {
      if (err instanceof NetworkError) keep();
      else onError(errorWords(t, err, imageUploadError(err)));
    } finally {
      setUploading(false);
    }
  };
  const errorId = `${item.key}-error`;
  return (
    <div
      className={classes.item}
      role="group"
      aria-label={name}
      data-item-key={item.key}
      data-result={answer.result ?? undefined}
      data-error={error ? true : undefined}
    >
      <Text fw={500} mb={6}>
        {label}
      </Text>
      <Group grow gap="xs">
        {(['pass', 'defect'] as const).map((r) => (
          <Button
            key={r}
            variant="default"
            className={classes.choice}
            data-pressed={answer.result === r ? r : undefined}
            aria-pressed={answer.result === r}
            aria-describedby={error ? errorId : undefined}
            leftSection={r === 'pass' ? <IconCheck size={18} aria-hidden /> : <IconAlertTriangle size={18} aria-hidden />}
            onClick={() => onChange({ result: r })}
          >
            {r === 'pass' ? t('inspection.pass') : t('inspection.defect')}
          </Button>
        ))}
      </Group>
      {answer.result === 'defect' && (
        <Stack gap="xs" mt="sm">
          <Textarea
            label={t('inspection.whatIsWrong')}
            required
            size="md"
            autosize
            minRows={2}
            maxLength={1000}
            value={answer.note}
            onChange={(e) => onChange({ note: e.currentTarget.value })}
            placeholder={t('inspection.whatIsWrongHint')}
          />
          <Switch
            size="md"
            label={t('inspection.affects')}
            description={t('inspection.affectsHelp')}
            checked={answer.safety}
            onChange={(e) => onChange({ safety: e.currentTarget.checked })}
          />
          <div className={classes.photos}>
            {answer.imageIds.map((id, n) => (
              <div key={id} className={classes.photo}>
                <img src={photoUrls[id]} alt={t('inspection.photoOf', { n: n + 1, item: name })} />
                <ActionIcon
                  className={classes.photoRemove}
                  size="sm"
                  color="dark"
                  variant="filled"
                  aria-label={t('inspection.removePhoto', { n: n + 1 })}
                  onClick={() => onChange({ imageIds: answer.imageIds.filter((x) => x !== id) })}
                >
                  <IconX size={14} />
                </ActionIcon>
              </div>
            ))}
          </div>
          {answer.imageIds.length < MAX_PHOTOS && (
            <FileButton onChange={(f) => void addPhoto(f)} accept="image/png,image/jpeg,image/gif,image/webp" capture="environment">
              {(props) => (
                <Button {...props} variant="light" size="md" loading={uploading} leftSection={<IconCamera size={18} aria-hidden />}>
                  {answer.imageIds.length ? t('inspection.addPhotoCount', { n: answer.imageIds.length, max: MAX_PHOTOS }) : t('inspection.addPhoto')}
                </Button>
              )}
            </FileButton>
          )}
        </Stack>
      )}
      {error && (
        <Text size="sm" c="var(--mantine-color-error)" mt={6} id={errorId} role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}
