import { Paper } from '@mantine/core';
import { DataState } from './data-state.tsx';
import { PageHeader, type PageHeaderProps } from './page-header.tsx';

/** Placeholder for a route whose screen a later issue builds: its title and an empty state. */
export function ComingSoon({ title, description, breadcrumbs }: Pick<PageHeaderProps, 'title' | 'breadcrumbs'> & { description?: string }) {
  return (
    <>
      <PageHeader title={title} breadcrumbs={breadcrumbs} />
      <Paper withBorder p="lg">
        <DataState
          isEmpty
          emptyTitle="Coming soon"
          emptyDescription={description ?? `The ${title} screen is being built. Everything else in Fleetline keeps working meanwhile.`}
        />
      </Paper>
    </>
  );
}
