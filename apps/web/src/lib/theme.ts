import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import type {
  AlertProps,
  ComboboxProps,
  DrawerProps,
  LoaderProps,
  MenuProps,
  ModalProps,
  OverlayProps,
  PopoverProps,
  TableScrollContainerProps,
  TooltipProps,
} from '@mantine/core';

/** Spec section 9: breakpoints in pixels and their labels. */
export const BREAKPOINTS = { xs: 600, sm: 905, md: 1024, lg: 1440 } as const;
export type BreakpointLabel = 'Mobile' | 'Tablet' | 'Desktop' | 'ExtraLarge' | 'AboveExtraLarge';

export function breakpointLabel(width: number): BreakpointLabel {
  if (width < BREAKPOINTS.xs) return 'Mobile';
  if (width < BREAKPOINTS.sm) return 'Tablet';
  if (width < BREAKPOINTS.md) return 'Desktop';
  if (width < BREAKPOINTS.lg) return 'ExtraLarge';
  return 'AboveExtraLarge';
}

/** Spec section 9: interface layers. */
export const Z_INDEX = { overlay: 1000, menu: 1000, modal: 1100, tooltip: 9999, header: 200, banner: 150 } as const;

/** Theme switch delay of spec section 4. */
export const THEME_SWITCH_DELAY_MS = 350;

/**
 * Fleet blue. Shade 7 (#1d5fa8) gives 6.4:1 on white and white text on it 6.4:1, so small text and
 * filled buttons pass WCAG AA in light mode; dark mode uses shade 3 text on the dark body (7:1) and
 * shade 7 fills.
 */
const fleet: MantineColorsTuple = ['#e8f1fc', '#cfe0f6', '#a2c2ec', '#72a3e2', '#4a88d9', '#3077d2', '#236bc8', '#1d5fa8', '#174f8d', '#0f3d6f'];

/**
 * A component's defaults in the theme, typed by its props alone. `Tooltip.extend()` and the like
 * would import the components themselves (and floating-ui, the modal's focus trap) into the first
 * load of every page, the sign-in page included (issue 67).
 */
const defaults = <P>(defaultProps: Partial<P>) => ({ defaultProps });

export const theme = createTheme({
  // A user who asked their system for less motion gets none: modals, menus and notifications appear
  // without their transitions (WCAG 2.3.3). The browser tests ask for it too (less to render).
  respectReducedMotion: true,
  colors: { fleet },
  primaryColor: 'fleet',
  primaryShade: { light: 7, dark: 7 },
  autoContrast: true,
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
  breakpoints: { xs: '37.5em', sm: '56.5625em', md: '64em', lg: '90em', xl: '120em' },
  components: {
    // Spec section 9, tooltip defaults: max width 350, top, offset 0/10, 300/250 ms.
    Tooltip: defaults<TooltipProps>({
      position: 'top',
      offset: { mainAxis: 10, crossAxis: 0 },
      zIndex: Z_INDEX.tooltip,
      maw: 350,
      multiline: true,
      withArrow: true,
      transitionProps: { duration: 300, exitDuration: 250 },
    }),
    // Every close button has a name (axe: button-name), whoever forgets to give one.
    Modal: defaults<ModalProps>({ zIndex: Z_INDEX.modal, closeButtonProps: { 'aria-label': 'Close' } }),
    Drawer: defaults<DrawerProps>({ closeButtonProps: { 'aria-label': 'Close' } }),
    Alert: defaults<AlertProps>({ closeButtonLabel: 'Close' }),
    // A spinner's aria-label ("Loading vehicles") is only allowed on an element with a role (axe: aria-prohibited-attr).
    Loader: defaults<LoaderProps>({ role: 'status' }),
    // A table that scrolls sideways can be scrolled from the keyboard (axe: scrollable-region-focusable).
    TableScrollContainer: defaults<TableScrollContainerProps>({
      scrollAreaProps: { viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Table, scrolls sideways' } },
    }),
    Overlay: defaults<OverlayProps>({ zIndex: Z_INDEX.overlay }),
    Menu: defaults<MenuProps>({ zIndex: Z_INDEX.menu }),
    Popover: defaults<PopoverProps>({ zIndex: Z_INDEX.menu }),
    // Select and autocomplete dropdowns open above a modal (a form in a modal picks a role or a time zone).
    Combobox: defaults<ComboboxProps>({ zIndex: Z_INDEX.modal + 10 }),
  },
});

/**
 * Light theme text of Mantine's colours, each at least 4.5:1 (WCAG AA for small text): `light` on the
 * light variant's hover background (shade 2; badges, light buttons, alerts), `text` on white (`c="red"`,
 * the outline variant). Mantine's shade 9 and 7 fall under it for most colours (teal 3.8, green 3.4,
 * yellow 2.5); these are those shades darkened until they pass. The dark theme's light text (shade 0)
 * and text (shade 4) already pass on its backgrounds. theme.test.ts checks every ratio.
 */
export const LIGHT_TONES: Record<string, { light: string; text: string }> = {
  gray: { light: '#212529', text: '#495057' },
  red: { light: '#ad2424', text: '#c92a2a' },
  pink: { light: '#a61e4d', text: '#c2255c' },
  grape: { light: '#862e9c', text: '#9c36b5' },
  violet: { light: '#5939b8', text: '#6741d9' },
  indigo: { light: '#3249b7', text: '#3b5bdb' },
  blue: { light: '#165a9a', text: '#1971c2' },
  cyan: { light: '#0a697a', text: '#0b7285' },
  teal: { light: '#077050', text: '#087f5b' },
  green: { light: '#237133', text: '#237133' },
  lime: { light: '#48730a', text: '#48730a' },
  yellow: { light: '#a15300', text: '#a15300' },
  orange: { light: '#a9380c', text: '#a9380c' },
};

const lightToneVariables = Object.fromEntries(
  Object.entries(LIGHT_TONES).flatMap(([name, t]) => [
    [`--mantine-color-${name}-light-color`, t.light],
    [`--mantine-color-${name}-text`, t.text],
    [`--mantine-color-${name}-outline`, t.text],
  ]),
);

/** Mantine's dimmed grey and error red are below 4.5:1 for small text; these shades pass AA. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    ...lightToneVariables,
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': '#c92a2a',
    '--mantine-color-anchor': '#1d5fa8',
    '--mantine-color-placeholder': '#6c737a',
  },
  dark: {
    '--mantine-color-dimmed': '#a6a7ab',
    '--mantine-color-error': '#ff8787',
    '--mantine-color-anchor': '#8fb8ec',
    '--mantine-color-fleet-light-color': '#a2c2ec',
    '--mantine-color-placeholder': '#909296',
  },
});
