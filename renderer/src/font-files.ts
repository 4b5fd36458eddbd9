/**
 * The bundled typefaces (protocol/src/scene.ts, FONT_FAMILIES): the latin subset of each weight that
 * exists up to 800, from the @fontsource packages (SIL Open Font License 1.1). esbuild copies each file
 * under a content-hashed name, served by onair at /render/fonts/ (renderer/build.mjs).
 */
import type { FontFamily } from '@onair/protocol';
import inter400 from '@fontsource/inter/files/inter-latin-400-normal.woff2';
import inter500 from '@fontsource/inter/files/inter-latin-500-normal.woff2';
import inter600 from '@fontsource/inter/files/inter-latin-600-normal.woff2';
import inter700 from '@fontsource/inter/files/inter-latin-700-normal.woff2';
import inter800 from '@fontsource/inter/files/inter-latin-800-normal.woff2';
import oswald400 from '@fontsource/oswald/files/oswald-latin-400-normal.woff2';
import oswald500 from '@fontsource/oswald/files/oswald-latin-500-normal.woff2';
import oswald600 from '@fontsource/oswald/files/oswald-latin-600-normal.woff2';
import oswald700 from '@fontsource/oswald/files/oswald-latin-700-normal.woff2';
import barlowCondensed400 from '@fontsource/barlow-condensed/files/barlow-condensed-latin-400-normal.woff2';
import barlowCondensed500 from '@fontsource/barlow-condensed/files/barlow-condensed-latin-500-normal.woff2';
import barlowCondensed600 from '@fontsource/barlow-condensed/files/barlow-condensed-latin-600-normal.woff2';
import barlowCondensed700 from '@fontsource/barlow-condensed/files/barlow-condensed-latin-700-normal.woff2';
import barlowCondensed800 from '@fontsource/barlow-condensed/files/barlow-condensed-latin-800-normal.woff2';
import robotoMono400 from '@fontsource/roboto-mono/files/roboto-mono-latin-400-normal.woff2';
import robotoMono500 from '@fontsource/roboto-mono/files/roboto-mono-latin-500-normal.woff2';
import robotoMono600 from '@fontsource/roboto-mono/files/roboto-mono-latin-600-normal.woff2';
import robotoMono700 from '@fontsource/roboto-mono/files/roboto-mono-latin-700-normal.woff2';

export interface FontFile {
  family: FontFamily;
  weight: number;
  url: string;
}

/** Weights a family lacks (Oswald and Roboto Mono stop at 700) fall to the nearest one, as CSS matches. */
export const FONT_FILES: readonly FontFile[] = [
  { family: 'Inter', weight: 400, url: inter400 },
  { family: 'Inter', weight: 500, url: inter500 },
  { family: 'Inter', weight: 600, url: inter600 },
  { family: 'Inter', weight: 700, url: inter700 },
  { family: 'Inter', weight: 800, url: inter800 },
  { family: 'Oswald', weight: 400, url: oswald400 },
  { family: 'Oswald', weight: 500, url: oswald500 },
  { family: 'Oswald', weight: 600, url: oswald600 },
  { family: 'Oswald', weight: 700, url: oswald700 },
  { family: 'Barlow Condensed', weight: 400, url: barlowCondensed400 },
  { family: 'Barlow Condensed', weight: 500, url: barlowCondensed500 },
  { family: 'Barlow Condensed', weight: 600, url: barlowCondensed600 },
  { family: 'Barlow Condensed', weight: 700, url: barlowCondensed700 },
  { family: 'Barlow Condensed', weight: 800, url: barlowCondensed800 },
  { family: 'Roboto Mono', weight: 400, url: robotoMono400 },
  { family: 'Roboto Mono', weight: 500, url: robotoMono500 },
  { family: 'Roboto Mono', weight: 600, url: robotoMono600 },
  { family: 'Roboto Mono', weight: 700, url: robotoMono700 },
];
