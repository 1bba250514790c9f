import { Button, Group, PasswordInput, SimpleGrid, Stack, TextInput, Anchor, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { gettingStartedFormSchema } from '@fleet/api-contract/auth';
import { homePath } from '../../lib/auth-store.ts';
import { field, useZodForm } from '../../lib/form.ts';
import { AuthCard } from './auth-card.tsx';
import { useRegister } from './api/auth-api.ts';

/** Getting started: creates the company's organization and its first administrator. */
export default function GettingStartedPage() {
  const navigate = useNavigate();
  const register = useRegister();
  const form = useZodForm(gettingStartedFormSchema, {
    defaultValues: { firstname: '', lastname: '', organizationName: '', email: '', password: '', confirmPassword: '' },
  });
  const onSubmit = form.handleSubmit(async ({ confirmPassword: _confirm, ...values }) => {
    const res = await register.mutateAsync(values).catch(() => null);
    if (res) await navigate(homePath(res.user), { replace: true });
  });
  return (
    <AuthCard title="Create your Fleetline account" subtitle="Your company gets its own organization; you become its administrator.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput label="First name" autoComplete="given-name" withAsterisk {...field(form, 'firstname')} />
            <TextInput label="Last name" autoComplete="family-name" withAsterisk {...field(form, 'lastname')} />
          </SimpleGrid>
          <TextInput label="Company name" autoComplete="organization" withAsterisk {...field(form, 'organizationName')} />
          <TextInput label="Email" type="email" autoComplete="email" placeholder="you@company.com" withAsterisk {...field(form, 'email')} />
          <PasswordInput label="Password" placeholder="min 8 characters" autoComplete="new-password" withAsterisk {...field(form, 'password')} />
          <PasswordInput label="Confirm password" autoComplete="new-password" withAsterisk {...field(form, 'confirmPassword')} />
          <Button type="submit" loading={register.isPending} fullWidth>
            Create account
          </Button>
          <Group gap={6} justify="center">
            <Text size="sm">Already have an account?</Text>
            <Anchor component={Link} to="/" size="sm" fw={600}>
              Log In
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
