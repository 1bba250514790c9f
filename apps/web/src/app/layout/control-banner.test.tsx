import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { clearSession, signIn } from '../../lib/auth-store.ts';
import { clearControlledOrganization, controlStore, setControlledOrganization } from '../../lib/control-store.ts';
import { NoOrganizationError, orgPath } from '../../lib/org-path.ts';
import { ControlBanner } from './control-banner.tsx';
import { adminUser, superAdminUser } from '../../test/fixtures.ts';
import { renderWithTheme } from '../../test/render.tsx';

const tokens = { accessToken: 'a', refreshToken: 'r' };

afterEach(() => {
  clearControlledOrganization();
  clearSession();
});

describe('organization paths and control mode', () => {
  it("builds paths under the user's own organization", () => {
    signIn({ user: adminUser(), ...tokens });
    expect(orgPath('/assets')).toBe(`/organizations/${adminUser().organization!.id}/assets`);
  });

  it('routes a super administrator to the organization it controls, and refuses without one', () => {
    signIn({ user: superAdminUser(), ...tokens });
    expect(() => orgPath('/assets')).toThrow(NoOrganizationError);
    setControlledOrganization({ id: 'org-42', name: 'Northwind Haulage' });
    expect(orgPath('/assets')).toBe('/organizations/org-42/assets');
    expect(JSON.parse(localStorage.getItem('fleet.controlledOrganization')!)).toEqual({ id: 'org-42', name: 'Northwind Haulage' });
  });

  it('ignores a stored control selection for an organization member', () => {
    signIn({ user: adminUser(), ...tokens });
    setControlledOrganization({ id: 'org-42', name: 'Northwind Haulage' });
    expect(orgPath('/users')).toBe(`/organizations/${adminUser().organization!.id}/users`);
  });

  it("shows 'Control organization: {name}' to a controlling super administrator; close resets to none", () => {
    signIn({ user: superAdminUser(), ...tokens });
    renderWithTheme(
      <MemoryRouter>
        <ControlBanner />
      </MemoryRouter>,
    );
    expect(screen.queryByText(/Control organization/)).toBeNull();
    act(() => setControlledOrganization({ id: 'org-42', name: 'Northwind Haulage' }));
    expect(screen.getByText('Control organization: Northwind Haulage')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Stop controlling this organization' }));
    expect(controlStore.get()).toBeNull();
    expect(screen.queryByText(/Control organization/)).toBeNull();
  });
});
