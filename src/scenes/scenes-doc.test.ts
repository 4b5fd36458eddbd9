/**
 * docs/scenes.md cannot drift from the format: every definition it shows as `json scene` passes the API's
 * validation, the curl example sends the first of them, and the templates table matches the templates.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../templates/index.js';
import { validationError } from '../validation.js';
import { SceneDefinitionIn, SceneIn } from './definition-schema.js';

const doc = readFileSync(new URL('../../docs/scenes.md', import.meta.url), 'utf8');
const definitions = [...doc.matchAll(/^```json scene\n([\s\S]*?)^```$/gm)].map((m) => JSON.parse(m[1]!) as unknown);

describe('docs/scenes.md', () => {
  it('shows definitions, the worked example last', () => {
    expect(definitions.length).toBeGreaterThanOrEqual(2);
    expect(doc.indexOf('## Worked example')).toBeLessThan(doc.lastIndexOf('```json scene'));
  });

  it.each(definitions.map((d, i) => [i, d]))('definition %i passes validation', (_i, definition) => {
    const result = SceneDefinitionIn.safeParse(definition);
    expect(result.success || validationError(result.error).errors).toBe(true);
  });

  it('sends the first definition in its curl example', () => {
    const body = /-d '(\{"name":"Strip".*\})'$/m.exec(doc)?.[1];
    expect(body).toBeDefined();
    const parsed = SceneIn.parse(JSON.parse(body!));
    expect(parsed.definition).toEqual(SceneDefinitionIn.parse(definitions[0]));
  });

  it('lists every template with its layer and inputs', () => {
    for (const t of TEMPLATES) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${t.id}\``));
      expect(row, t.id).toBeDefined();
      expect(row!.split('|')[2]!.trim()).toBe(String(t.definition.layer));
      for (const input of t.definition.inputs) expect(row, `${t.id}: ${input.name}`).toContain(`\`${input.name}\``);
      for (const trigger of t.definition.triggers) expect(row, `${t.id}: ${trigger.name}`).toContain(trigger.name);
    }
  });

  it('quotes the error an undeclared placeholder really gets', () => {
    const definition = {
      inputs: [{ name: 'period', type: 'number' }],
      elements: [
        { type: 'box', x: 0, y: 0, width: 10, height: 10 },
        { type: 'text', x: 0, y: 0, width: 10, height: 10, text: 'P{periood}', fontSize: 20 },
      ],
    };
    const result = SceneIn.safeParse({ name: 'S', definition });
    const [problem] = result.success ? [] : (validationError(result.error).errors ?? []);
    expect(problem?.path).toBe('definition.elements.1.text');
    expect(doc).toContain(`"path": "${problem?.path}",\n  "message": ${JSON.stringify(problem?.message)}`);
  });
});
