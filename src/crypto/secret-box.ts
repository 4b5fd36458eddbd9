/**
 * Seals webhook signing secrets for storage (AES-256-GCM): the database alone never reveals one. The key is
 * derived from ONAIR_SECRET_KEY, or from a key generated once into the data directory (mode 0600) and
 * reused. Each sealed value is bound to its subscription id, so a value copied onto another row does not open.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
const KEY_FILE = 'secret.key';

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** From configured key material (any string of 32+ characters; HKDF turns it into the AES key). */
  static fromMaterial(material: string): SecretBox {
    const key = crypto.hkdfSync('sha256', material, Buffer.alloc(0), 'onair webhook secrets v1', 32);
    return new SecretBox(Buffer.from(key));
  }

  /**
   * From the configured material or, without it, `secret.key` in the data directory, created (0600) on
   * first use. `created` says the key is new, for the log.
   */
  static open(material: string | undefined, dataDir: string): { box: SecretBox; created: boolean } {
    if (material !== undefined) return { box: SecretBox.fromMaterial(material), created: false };
    const file = path.join(dataDir, KEY_FILE);
    try {
      createDurably(file, `${crypto.randomBytes(32).toString('hex')}\n`);
      return { box: SecretBox.fromMaterial(fs.readFileSync(file, 'utf8').trim()), created: true };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const text = fs.readFileSync(file, 'utf8').trim();
    if (text.length < 32) throw new Error(`${file} is damaged: it must hold at least 32 characters.`);
    return { box: SecretBox.fromMaterial(text), created: false };
  }

  seal(secret: string, boundTo: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join('.');
  }

  /** Throws when the value was sealed with another key or for another id. */
  open(sealed: string, boundTo: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/**
 * Creates `file` with `text` (mode 0600) unless it exists (EEXIST), so that a crash or a failing disk right after
 * never leaves it empty or half written: the text is synced in a temporary file, linked into place (atomic, and
 * refused if the file exists), and the directory synced.
 */
function createDurably(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(temp, file);
  } finally {
    fs.rmSync(temp, { force: true });
  }
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}
