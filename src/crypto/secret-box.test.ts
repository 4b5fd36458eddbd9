import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';
import { tempDirs } from '../../test/helpers/temp-dirs.js';

const tempDir = tempDirs('onair-box-');

describe('SecretBox', () => {
  it('opens what it sealed, for the same id only, and never shows the secret in the sealed form', () => {
    const box = SecretBox.fromMaterial('a'.repeat(32));
    const sealed = box.seal('whsec_top-secret', 'wh_1');
    expect(sealed).not.toContain('top-secret');
    expect(box.seal('whsec_top-secret', 'wh_1')).not.toBe(sealed);
    expect(box.open(sealed, 'wh_1')).toBe('whsec_top-secret');
    expect(() => box.open(sealed, 'wh_2')).toThrow();
    expect(() => SecretBox.fromMaterial('b'.repeat(32)).open(sealed, 'wh_1')).toThrow();
    expect(() => box.open('v1.garbage', 'wh_1')).toThrow();
  });

  it('generates its key once into the data directory, readable by the owner only, and reuses it', () => {
    const dir = tempDir();
    const first = SecretBox.open(undefined, dir);
    expect(first.created).toBe(true);
    const file = path.join(dir, 'secret.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const sealed = first.box.seal('whsec_x', 'wh_1');
    const again = SecretBox.open(undefined, dir);
    expect(again.created).toBe(false);
    expect(again.box.open(sealed, 'wh_1')).toBe('whsec_x');
    // Configured material wins over the file.
    expect(() => SecretBox.open('c'.repeat(32), dir).box.open(sealed, 'wh_1')).toThrow();
  });

  it('refuses a damaged key file instead of sealing with a weak key', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'secret.key'), 'short\n');
    expect(() => SecretBox.open(undefined, dir)).toThrow(/damaged/);
  });
});
