import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Modal, MultiSelect, Select, Stack, TagsInput, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { HOS_LOG_MAX_SHIPPING_DOCUMENTS, HOS_LOG_MAX_TRAILERS } from '@fleet/api-contract/hos';
import type { HosLogDay } from '@fleet/api-contract';
import { ApiError } from '../../../lib/api-client.ts';
import { formatTime } from '../../../lib/dates.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { fieldMessages } from '../../../lib/registry-api.ts';
import { errorWords, fieldWords } from '../../../i18n/error-words.ts';
import { driverChoicesQuery, useUpdateLogHeader } from './driver-api.ts';

// A chunk of its own, loaded on the first tap of Edit (trip-details.tsx, issue 67).

/** Today's shipping documents, trailers and co-driver, as the driver edits them. */
export default function TripForm({ orgId, userId, day, onClose }: { orgId: string; userId: string; day: HosLogDay; onClose: () => void }) {
  const { t } = useTranslation();
  const choices = useQuery(driverChoicesQuery(orgId, userId));
  const save = useUpdateLogHeader(orgId, userId);
  const h = day.header;
  const [documents, setDocuments] = useState<string[]>(h.shippingDocuments);
  const [trailers, setTrailers] = useState<string[]>(h.trailers.map((x) => x.id));
  const [coDriver, setCoDriver] = useState<string | null>(h.coDriver?.id ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async () => {
    setErrors({});
    try {
      const out = await save.mutateAsync({
        logId: day.id,
        body: { shippingDocuments: documents, trailerIds: trailers, coDriverId: coDriver },
        label: t('driver.trip.title'),
      });
      notify({
        type: out.sent ? 'success' : 'not-viewed',
        timeout: 5000,
        title: t('driver.trip.saved'),
        category: out.sent ? t('driver.trip.savedBody') : t('offline.kept', { time: formatTime(Date.now(), h.timeZone) }),
      });
      onClose();
    } catch (err) {
      const byField: Record<string, string> = {};
      if (err instanceof ApiError && err.body)
        for (const m of fieldMessages(err.body.technicalMessage ?? '')) byField[m.path.split('.')[0]!] = fieldWords(t, err.body, m.message);
      setErrors(Object.keys(byField).length ? byField : { form: errorWords(t, err) });
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('driver.trip.title')} centered>
      <Stack gap="sm">
        <TagsInput
          label={t('driver.trip.documents')}
          description={t('driver.trip.documentsHelp', { max: HOS_LOG_MAX_SHIPPING_DOCUMENTS })}
          value={documents}
          onChange={setDocuments}
          maxTags={HOS_LOG_MAX_SHIPPING_DOCUMENTS}
          error={errors.shippingDocuments}
          size="md"
          clearable
        />
        <MultiSelect
          label={t('driver.trip.trailers')}
          data={(choices.data?.trailers ?? []).map((x) => ({ value: x.id, label: x.unitNumber }))}
          value={trailers}
          onChange={setTrailers}
          maxValues={HOS_LOG_MAX_TRAILERS}
          searchable
          disabled={choices.isLoading}
          error={errors.trailerIds}
          size="md"
          nothingFoundMessage={t('driver.trip.noTrailer')}
        />
        <Select
          label={t('driver.trip.coDriver')}
          data={(choices.data?.coDrivers ?? []).map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName}` }))}
          value={coDriver}
          onChange={setCoDriver}
          searchable
          clearable
          disabled={choices.isLoading}
          error={errors.coDriverId}
          size="md"
          nothingFoundMessage={t('driver.trip.noDriver')}
        />
        {errors.form && (
          <Text size="sm" c="red" role="alert">
            {errors.form}
          </Text>
        )}
        <Group grow>
          <Button variant="default" size="md" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button size="md" loading={save.isPending} onClick={() => void submit()}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
