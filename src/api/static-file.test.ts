import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StaticDir } from './static-file.js';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-static-'));
  fs.writeFileSync(path.join(dir, 'app.js'), 'run()');
  fs.writeFileSync(path.join(dir, 'app.css'), 'body{}');
  fs.mkdirSync(path.join(dir, 'sub'));
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const text = (body: Uint8Array | undefined) => new TextDecoder().decode(body);

describe('StaticDir', () => {
  it('serves the files listed at start, with their type', () => {
    const files = new StaticDir(dir);
    expect(text(files.get('app.js')?.body)).toBe('run()');
    expect(files.get('app.js')?.type).toBe('text/javascript; charset=utf-8');
    expect(files.get('app.css')?.type).toBe('text/css; charset=utf-8');
  });

  it('answers names outside the listing with null: directories, escapes, later files', () => {
    const files = new StaticDir(dir);
    fs.writeFileSync(path.join(dir, 'late.js'), 'late()');
    for (const name of ['sub', '../app.js', 'sub/../app.js', '.', '', 'late.js', 'x'.repeat(5000)]) {
      expect(files.get(name), name).toBeNull();
    }
  });

  it('remembers nothing per name asked for', () => {
    const files = new StaticDir(dir);
    const size = () => (files as unknown as { files: Map<string, unknown> }).files.size;
    const before = size();
    for (let i = 0; i < 1000; i++) files.get(`missing-${i}.js`);
    expect(size()).toBe(before);
  });

  it('keeps only the names it is told to, when told', () => {
    const files = new StaticDir(dir, ['app.css']);
    expect(files.get('app.js')).toBeNull();
    expect(files.get('app.css')).not.toBeNull();
  });

  it('answers a file removed after the listing as missing, and a missing directory as empty', () => {
    const files = new StaticDir(dir);
    fs.rmSync(path.join(dir, 'app.js'));
    expect(files.get('app.js')).toBeNull();
    expect(new StaticDir(path.join(dir, 'nowhere')).get('app.js')).toBeNull();
  });
});
