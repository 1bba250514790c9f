import type { FontFacesSpecification } from 'maplibre-gl';
// Noto Sans Bold, Latin subset (OFL, via @fontsource): Vite emits it as a hashed asset of the web
// app, so cluster counts and labels are drawn from our own origin, with or without internet.
import notoSansBoldLatin from '@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff2?url';

/** The `text-font` name our own labels (cluster counts) use on every base map. */
export const LABEL_FONT = 'Fleetline Sans Bold';

/** Latin-1 (digits, letters, punctuation): what counts and unit labels need. */
const LATIN_RANGE = ['U+0000-00FF'];

/**
 * The style's `font-faces` entry for LABEL_FONT: MapLibre (GL JS 6) loads the bundled font file
 * and renders its glyphs as SDF itself, so no glyph server is needed. The URL must be absolute.
 */
export function labelFontFaces(origin: string): FontFacesSpecification {
  return { [LABEL_FONT]: [{ url: new URL(notoSansBoldLatin, origin).href, 'unicode-range': LATIN_RANGE }] };
}
