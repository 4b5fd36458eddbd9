/** The built-in scene templates (docs/scenes.md, "Templates"), as GET /v1/templates lists them. */
import { z } from 'zod';
import { TEMPLATES, type Template } from '../templates/index.js';
import type { WorkspaceOperation } from './operation.js';

/** A template as the API shows it: its layer, inputs and trigger names lifted out of the definition. */
export function templateView(t: Template) {
  return {
    id: t.id,
    name: t.name,
    layer: t.definition.layer,
    inputs: t.definition.inputs,
    triggers: t.definition.triggers.map((trigger) => trigger.name),
    definition: t.definition,
  };
}

export const listTemplates: WorkspaceOperation<unknown, { data: ReturnType<typeof templateView>[]; nextCursor: null }> =
  {
    name: 'templates.list',
    scope: 'workspace',
    permission: 'channels:read',
    bucket: 'reads',
    input: z.strictObject({}),
    run: async () => ({ data: TEMPLATES.map(templateView), nextCursor: null }),
  };
