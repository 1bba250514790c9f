import { useRef, useState } from 'react';
import { Alert, Button, FileInput, Group, Modal, NativeSelect, SegmentedControl, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import {
  COMPLIANCE_REQUIRED_FIELDS,
  complianceFieldProblems,
  kindsOfSubject,
  type ComplianceItem,
  type ComplianceKind,
  type InspectionResult,
} from '@fleet/api-contract/compliance';
import { ApiError, describeError } from '../../lib/api-client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { fieldMessages } from '../../lib/registry-api.ts';
import { createItem, updateItem, uploadPages, useComplianceMutation, type ComplianceSubjectRef } from './compliance-api.ts';
import { kindLabel } from './compliance-words.tsx';

// A paper added to a file or corrected (issue 71): the fields its kind has (a licence's number, state,
// class and endorsements; an inspection's inspector, result and failed items; a permit's name), its
// dates, notes, and its document (photos or scans, or one PDF) attached in the same step.

type Field =
  'number' | 'state' | 'class' | 'endorsements' | 'restrictions' | 'title' | 'issuer' | 'examinerRegistryNumber' | 'inspector' | 'issuedOn' | 'expiresOn';

/** Each kind's fields, in the order shown, with the words of that kind ("Policy number", "Inspected on"). */
const FIELDS: Record<ComplianceKind, ReadonlyArray<[Field, string]>> = {
  CDL: [
    ['number', 'Licence number'],
    ['state', 'State'],
    ['class', 'Class'],
    ['endorsements', 'Endorsements'],
    ['restrictions', 'Restrictions'],
    ['issuedOn', 'Issued on'],
    ['expiresOn', 'Expires on'],
  ],
  MEDICAL_CERTIFICATE: [
    ['issuedOn', 'Examined on'],
    ['expiresOn', 'Expires on'],
    ['examinerRegistryNumber', 'Examiner registry number'],
    ['issuer', 'Medical examiner'],
  ],
  MVR: [
    ['issuedOn', 'Obtained on'],
    ['state', 'State'],
  ],
  ANNUAL_REVIEW: [
    ['issuedOn', 'Reviewed on'],
    ['issuer', 'Reviewed by'],
  ],
  ROAD_TEST: [
    ['issuedOn', 'Tested on'],
    ['issuer', 'Examiner'],
  ],
  EMPLOYMENT_APPLICATION: [['issuedOn', 'Signed on']],
  EMPLOYER_INQUIRY: [
    ['title', 'Previous employer'],
    ['issuedOn', 'Inquired on'],
  ],
  CLEARINGHOUSE_FULL: [['issuedOn', 'Queried on']],
  CLEARINGHOUSE_LIMITED: [['issuedOn', 'Queried on']],
  REGISTRATION: [
    ['number', 'Registration number'],
    ['state', 'State'],
    ['issuedOn', 'Issued on'],
    ['expiresOn', 'Expires on'],
  ],
  IRP_CAB_CARD: [
    ['number', 'Account number'],
    ['issuedOn', 'Issued on'],
    ['expiresOn', 'Expires on'],
  ],
  INSURANCE: [
    ['issuer', 'Insurer'],
    ['number', 'Policy number'],
    ['issuedOn', 'Effective on'],
    ['expiresOn', 'Expires on'],
  ],
  ANNUAL_INSPECTION: [
    ['issuedOn', 'Inspected on'],
    ['inspector', 'Inspector'],
  ],
  PERMIT: [
    ['title', 'Permit'],
    ['number', 'Number'],
    ['state', 'State'],
    ['issuedOn', 'Issued on'],
    ['expiresOn', 'Expires on'],
  ],
};

/** What the due date is when no expiry is given, said under the dates. */
const DUE_HINT: Partial<Record<ComplianceKind, string>> = {
  MVR: 'Due again 12 months after it was obtained.',
  ANNUAL_REVIEW: 'Due again 12 months after the review.',
  CLEARINGHOUSE_LIMITED: 'Due again 12 months after the query.',
  ANNUAL_INSPECTION: 'Due again 12 months after the inspection.',
  ROAD_TEST: 'Never expires.',
  EMPLOYMENT_APPLICATION: 'Never expires.',
  EMPLOYER_INQUIRY: 'Never expires; one for each employer of the last three years.',
  CLEARINGHOUSE_FULL: 'Never expires; the limited query is due each year after it.',
};

const FILE_TYPES = 'image/jpeg,image/png,application/pdf';

type Values = Record<Field, string> & { notes: string; result: InspectionResult | ''; failedItems: string };

function valuesOf(item: ComplianceItem | null): Values {
  const v = (x: string | null | undefined) => x ?? '';
  return {
    number: v(item?.number),
    state: v(item?.state),
    class: v(item?.class),
    endorsements: v(item?.endorsements),
    restrictions: v(item?.restrictions),
    title: v(item?.title),
    issuer: v(item?.issuer),
    examinerRegistryNumber: v(item?.examinerRegistryNumber),
    inspector: v(item?.inspector),
    issuedOn: v(item?.issuedOn),
    expiresOn: v(item?.expiresOn),
    notes: v(item?.notes),
    result: item?.result ?? '',
    failedItems: (item?.failedItems ?? []).join('\n'),
  };
}

export interface ItemDialogProps {
  subject: ComplianceSubjectRef & { subjectType: 'DRIVER' | 'VEHICLE' | 'TRAILER'; name: string };
  /** The paper to correct; none: a new one. */
  item?: ComplianceItem | null;
  /** The kind a new paper starts as (the checklist row's "Add"); none: the first of the subject's kinds. */
  kind?: ComplianceKind | null;
  onClose: () => void;
}

/** The add or edit dialog of a paper; it closes itself after saving (with its document uploaded). */
export function ItemDialog({ subject, item = null, kind: startKind = null, onClose }: ItemDialogProps) {
  const kinds = kindsOfSubject(subject.subjectType);
  const [kind, setKind] = useState<ComplianceKind>(item?.kind ?? startKind ?? kinds[0]!);
  const [values, setValues] = useState<Values>(() => valuesOf(item));
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  // A new paper saved whose document then failed to upload: trying again uploads only.
  const created = useRef<ComplianceItem | null>(null);
  const save = useComplianceMutation(async () => {
    const fields = FIELDS[kind].map(([f]) => f);
    const body: Record<string, unknown> = {};
    for (const f of fields) body[f] = values[f].trim() || null;
    body.notes = values.notes.trim() || null;
    if (kind === 'ANNUAL_INSPECTION') {
      body.result = values.result || null;
      body.failedItems =
        values.result === 'FAIL'
          ? values.failedItems
              .split('\n')
              .map((s) => s.trim())
              .filter(Boolean)
          : [];
    }
    const saved = item ? await updateItem({ id: item.id, body }) : (created.current ?? (await createItem({ subject, body: { kind, ...body } })));
    created.current = item ? null : saved;
    return files.length ? uploadPages({ id: saved.id, files }) : saved;
  });
  const set = (f: keyof Values, v: string) => {
    setValues((prev) => ({ ...prev, [f]: v }));
    if (errors[f]) setErrors(({ [f]: _, ...rest }) => rest);
  };
  const required = new Set<string>(COMPLIANCE_REQUIRED_FIELDS[kind]);

  const submit = () => {
    setFailure(null);
    const problems = complianceFieldProblems({
      kind,
      number: values.number.trim() || null,
      state: values.state.trim() || null,
      title: values.title.trim() || null,
      issuedOn: values.issuedOn || null,
      expiresOn: values.expiresOn || null,
      result: values.result || null,
    });
    // The API takes photos, or one PDF alone.
    if (files.length > 1 && files.some((f) => f.type === 'application/pdf'))
      problems.push({ path: 'document', message: 'Choose one PDF file alone, or photos' });
    if (problems.length) {
      setErrors(Object.fromEntries(problems.map((p) => [p.path, p.message])));
      return;
    }
    save.mutate(undefined, {
      onSuccess: (saved) => {
        notify({ type: 'success', title: `${kindLabel(saved.kind)} saved`, timeout: 4000 });
        onClose();
      },
      onError: (err) => {
        const byField: Record<string, string> = {};
        if (err instanceof ApiError) for (const m of fieldMessages(err.body?.technicalMessage ?? '')) byField[m.path.split('.')[0]!] = m.message;
        if (Object.keys(byField).length) setErrors(byField);
        const d = describeError(err);
        setFailure(
          err instanceof ApiError && err.status === 413 ? 'The document is larger than the upload limit.' : [d.title, d.details].filter(Boolean).join(': '),
        );
      },
    });
  };

  const input = ([f, label]: [Field, string]) =>
    f === 'issuedOn' || f === 'expiresOn' ? (
      <TextInput
        key={f}
        type="date"
        label={label}
        withAsterisk={required.has(f)}
        value={values[f]}
        onChange={(e) => set(f, e.currentTarget.value)}
        error={errors[f]}
      />
    ) : (
      <TextInput
        key={f}
        label={label}
        withAsterisk={required.has(f)}
        value={values[f]}
        onChange={(e) => set(f, e.currentTarget.value)}
        error={errors[f]}
        maxLength={f === 'state' ? 2 : 200}
        autoCapitalize={f === 'state' || f === 'number' ? 'characters' : undefined}
      />
    );

  return (
    <Modal opened onClose={onClose} title={item ? `Edit ${kindLabel(kind).toLowerCase()}` : `Add a paper to ${subject.name}'s file`} size="lg">
      <form
        noValidate
        aria-label="Compliance paper"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {!item && (
            <NativeSelect
              label="Paper"
              value={kind}
              onChange={(e) => {
                setKind(e.currentTarget.value as ComplianceKind);
                setErrors({});
              }}
              data={kinds.map((k) => ({ value: k, label: kindLabel(k) }))}
            />
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            {FIELDS[kind].map(input)}
          </SimpleGrid>
          {DUE_HINT[kind] && (
            <Text size="xs" c="dimmed">
              {DUE_HINT[kind]}
            </Text>
          )}
          {kind === 'ANNUAL_INSPECTION' && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="inspection-result">
                Result{' '}
                <Text span c="red">
                  *
                </Text>
              </Text>
              <SegmentedControl
                aria-labelledby="inspection-result"
                value={values.result}
                onChange={(v) => set('result', v)}
                data={[
                  { value: 'PASS', label: 'Passed' },
                  { value: 'FAIL', label: 'Failed' },
                ]}
                style={{ alignSelf: 'flex-start' }}
              />
              {errors.result && (
                <Text size="xs" c="red">
                  {errors.result}
                </Text>
              )}
              {values.result === 'FAIL' && (
                <Textarea
                  label="Failed items"
                  description="One a line; the unit is out of compliance until a passed inspection is recorded."
                  autosize
                  minRows={2}
                  value={values.failedItems}
                  onChange={(e) => set('failedItems', e.currentTarget.value)}
                  error={errors.failedItems}
                />
              )}
            </Stack>
          )}
          <Textarea label="Notes" autosize minRows={2} value={values.notes} onChange={(e) => set('notes', e.currentTarget.value)} error={errors.notes} />
          <FileInput
            label={item?.pageCount ? 'Add pages to the document' : 'Document'}
            description="Photos or scans of each page (JPEG, PNG), or one PDF"
            placeholder="Choose files"
            multiple
            clearable
            accept={FILE_TYPES}
            leftSection={<IconPaperclip size={16} aria-hidden />}
            value={files}
            onChange={(f) => {
              setFiles(f);
              setErrors(({ document: _, ...rest }) => rest);
            }}
            error={errors.document}
          />
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
