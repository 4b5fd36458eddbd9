/**
 * The font of a text or clock element (docs/scenes.md, "Typefaces"): the bundled families, then the WOFF2 fonts of the
 * workspace's asset library by name (the definition holds the font's path), each option drawn in its own face. A
 * value that is neither (a font deleted from the library, a typo in the JSON view) is kept and shown as unknown; the
 * server says what is wrong with it when the scene is checked.
 */
import { FONT_FAMILIES, fontAssetRef } from '@onair/protocol';
import { libraryFontCss, libraryFonts } from '../assets/asset-font.js';
import { useLoad } from '../components/use-load.js';
import { Field, type FieldProps } from './fields.js';

export function FontField(props: FieldProps & { value: unknown; onChange: (value: string | undefined) => void }) {
  const { value, onChange } = props;
  // Without the library (a failed list), the bundled families are still there to choose from.
  const fonts = useLoad(libraryFonts, []).data ?? [];
  const current = typeof value === 'string' ? value : '';
  const ref = fontAssetRef(current);
  const held = ref ? fonts.find((f) => f.path === ref.path) : undefined;
  const selected = held ? held.path : current;
  const known = current === '' || held !== undefined || (FONT_FAMILIES as readonly string[]).includes(current);
  return (
    <Field
      {...props}
      control={(a11y) => (
        <select
          {...a11y}
          value={selected}
          onChange={(e) => onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value)}
        >
          <option value="">Inter (default)</option>
          <optgroup label="Bundled">
            {FONT_FAMILIES.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </optgroup>
          {fonts.length > 0 && (
            <optgroup label="Asset library">
              {fonts.map((f) => (
                <option key={f.id} value={f.path} style={{ fontFamily: libraryFontCss(f) }}>
                  {f.name}
                </option>
              ))}
            </optgroup>
          )}
          {!known && <option value={current}>{`${current} (not known)`}</option>}
        </select>
      )}
    />
  );
}
