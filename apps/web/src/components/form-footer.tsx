import { Alert, Button, Group } from '@mantine/core';

/** Save/cancel row with the error no field took. */
export function FormFooter({
  form,
  busy,
  onCancel,
  label = 'Save',
}: {
  form: { formState: { errors: { root?: { message?: string } } } };
  busy: boolean;
  onCancel: () => void;
  label?: string;
}) {
  const rootError = form.formState.errors.root?.message;
  return (
    <>
      {rootError && (
        <Alert color="red" variant="light" role="alert" py="xs">
          {rootError}
        </Alert>
      )}
      <Group justify="flex-end" mt="sm">
        {/* No blur on press: a first field left empty would show its message and push this button
            from under the pointer before the click lands (forms validate on blur). */}
        <Button variant="default" onMouseDown={(e) => e.preventDefault()} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {label}
        </Button>
      </Group>
    </>
  );
}
