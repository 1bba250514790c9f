import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { Page } from '@fleet/api-contract';
import { ServerTable, type TableColumn } from './server-table.tsx';
import { ApiError } from '../lib/api-client.ts';
import { renderWithTheme } from '../test/render.tsx';

interface Vehicle {
  id: string;
  unit: string;
  vin: string;
}
const columns: TableColumn<Vehicle>[] = [
  { key: 'unit', header: 'Unit', render: (v) => v.unit, sortable: true, primary: true },
  { key: 'vin', header: 'VIN', render: (v) => v.vin },
];
const page = (content: Vehicle[], totalElements = content.length): Page<Vehicle> => ({
  content,
  page: 0,
  size: 15,
  totalElements,
  totalPages: Math.ceil(totalElements / 15),
});

function setup(props: Partial<Parameters<typeof ServerTable<Vehicle>>[0]> = {}) {
  const onStateChange = vi.fn();
  const onRowClick = vi.fn();
  renderWithTheme(
    <ServerTable<Vehicle>
      id="test-vehicles"
      label="Vehicles"
      columns={columns}
      query={{ data: page([{ id: '1', unit: 'T-101', vin: '1FUJGLDR12LM00001' }], 40), isLoading: false }}
      state={{ page: 0, size: 15 }}
      onStateChange={onStateChange}
      rowKey={(v) => v.id}
      onRowClick={onRowClick}
      {...props}
    />,
  );
  return { onStateChange, onRowClick };
}

describe('ServerTable', () => {
  it('renders the page, its range and the total', () => {
    setup();
    const table = screen.getByRole('table', { name: 'Vehicles' });
    expect(within(table).getByText('T-101')).toBeInTheDocument();
    expect(screen.getByText('1–15 of 40')).toBeInTheDocument();
  });

  it('cycles sorting asc, desc, none on a sortable header', () => {
    const { onStateChange } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Unit' }));
    expect(onStateChange).toHaveBeenLastCalledWith({ sort: 'unit,asc' });
    expect(screen.queryByRole('button', { name: 'VIN' })).toBeNull();
  });

  it('asks for the next sort direction from the current one', () => {
    const { onStateChange } = setup({ state: { page: 0, size: 15, sort: 'unit,asc' } });
    expect(screen.getByRole('columnheader', { name: /Unit/ })).toHaveAttribute('aria-sort', 'ascending');
    fireEvent.click(screen.getByRole('button', { name: 'Unit' }));
    expect(onStateChange).toHaveBeenLastCalledWith({ sort: 'unit,desc' });
  });

  it('opens a row by click or Enter', () => {
    const { onRowClick } = setup();
    const row = screen.getByText('T-101').closest('tr')!;
    fireEvent.click(row);
    fireEvent.keyDown(row, { key: 'Enter' });
    expect(onRowClick).toHaveBeenCalledTimes(2);
    expect(onRowClick).toHaveBeenCalledWith({ id: '1', unit: 'T-101', vin: '1FUJGLDR12LM00001' });
  });

  it('applies a still-debouncing search when a row opens, and not again after it (the row may navigate away)', () => {
    vi.useFakeTimers();
    try {
      const { onStateChange, onRowClick } = setup();
      fireEvent.change(screen.getByRole('textbox', { name: 'Search Vehicles' }), { target: { value: 'T-1' } });
      fireEvent.click(screen.getByText('T-101').closest('tr')!);
      expect(onStateChange.mock.calls).toEqual([[{ search: 'T-1' }]]);
      expect(onRowClick).toHaveBeenCalledTimes(1);
      act(() => vi.advanceTimersByTime(1000));
      expect(onStateChange).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the empty state with its action, and the error state with the server message', () => {
    setup({ query: { data: page([]), isLoading: false }, emptyTitle: 'No vehicles yet', emptyAction: <button type="button">Add vehicle</button> });
    expect(screen.getByText('No vehicles yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add vehicle' })).toBeInTheDocument();
  });

  it('shows the server error with a retry', () => {
    const onRetry = vi.fn();
    setup({
      query: {
        data: undefined,
        isLoading: false,
        error: new ApiError(503, { message: 'Database unavailable', technicalMessage: 'timeout', status: 503, timestamp: new Date().toISOString() }),
        refetch: onRetry,
      },
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Database unavailable');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalled();
  });

  it('shows skeleton rows while the first page loads', () => {
    setup({ query: { data: undefined, isLoading: true } });
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
