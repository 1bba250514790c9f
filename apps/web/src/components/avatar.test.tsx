import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Avatar, AVATAR_SIZES, avatarAltText } from './avatar.tsx';
import { renderWithTheme } from '../test/render.tsx';

describe('Avatar', () => {
  it('shows the icon when one is given, even with an image and names', () => {
    const { container } = renderWithTheme(<Avatar iconName="truck" avatarUrl="/images/x.png" firstName="Dana" lastName="Whitfield" />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('svg')).not.toBeNull();
    expect(container.textContent).not.toContain('D');
  });

  it('shows the image with alt text built from first and last name when there is no icon', () => {
    renderWithTheme(<Avatar avatarUrl="/images/x.png" firstName="Dana" lastName="Whitfield" />);
    const img = screen.getByRole('img', { name: 'Dana Whitfield avatar' });
    expect(img.tagName).toBe('IMG');
    expect(img).toHaveAttribute('src', '/images/x.png');
  });

  it('falls back to the uppercase first letter of the first name, also when the image fails to load', () => {
    const { container } = renderWithTheme(<Avatar avatarUrl="/broken.png" firstName="marco" lastName="Reyes" />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('img', { name: 'marco Reyes avatar' })).toHaveTextContent('M');
  });

  it('uses the spec sizes, md by default', () => {
    renderWithTheme(<Avatar firstName="A" />);
    const el = screen.getByRole('img', { name: 'A avatar' });
    expect(el).toHaveAttribute('data-size', 'md');
    expect(el.getAttribute('style')).toContain(`width: ${AVATAR_SIZES.md}px`);
    expect(Object.keys(AVATAR_SIZES)).toEqual(['xs', 'sm', 'md', 'lg', 'xl', '2xl', '3xl', 'huge', 'enormous']);
  });

  it('builds alt text from whatever names exist', () => {
    expect(avatarAltText('Dana', null)).toBe('Dana avatar');
    expect(avatarAltText(null, null, 'Truck 12')).toBe('Truck 12 avatar');
    expect(avatarAltText(undefined, undefined)).toBe('Avatar');
  });
});
