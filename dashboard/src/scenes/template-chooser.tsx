/**
 * A new scene starts here: a built-in template (GET /v1/templates) or a blank definition, and a name. Nothing is
 * created yet: the editor opens with the definition, and the scene exists once the user saves it.
 */
import { OgrafDownload } from './ograf-download.js';
import { useState } from 'preact/hooks';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { blankDefinition, type Obj } from './draft.js';
import { listTemplates, type TemplateInfo } from './editor-data.js';

export interface SceneStart {
  name: string;
  definition: Obj;
  /** The template's definition is complete and valid: the preview can draw it before the first check. */
  template: TemplateInfo | null;
}

const BLANK = 'blank';

export function TemplateChooser({ onStart }: { onStart: (start: SceneStart) => void }) {
  const { data: templates, error } = useLoad(listTemplates, []);
  const [choice, setChoice] = useState(BLANK);
  const [name, setName] = useState('');
  const template = templates?.find((t) => t.id === choice) ?? null;
  const submit = (event: Event) => {
    event.preventDefault();
    const definition = template ? (structuredClone(template.definition) as unknown as Obj) : blankDefinition();
    onStart({ name: name.trim() || template?.name || 'New scene', definition, template });
  };
  return (
    <form class="stack-form template-chooser" onSubmit={submit} aria-label="New scene">
      <Problem error={error} />
      <fieldset>
        <legend>Start from</legend>
        <label class="check">
          <input
            type="radio"
            name="template"
            value={BLANK}
            checked={choice === BLANK}
            onChange={() => setChoice(BLANK)}
          />
          Blank scene
        </label>
        {(templates ?? []).map((t) => (
          <label class="check" key={t.id}>
            <input
              type="radio"
              name="template"
              value={t.id}
              checked={choice === t.id}
              onChange={() => setChoice(t.id)}
            />
            <span>
              {t.name} <span class="hint small">{describeTemplate(t)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <label>
        Scene name
        <input
          value={name}
          maxLength={200}
          placeholder={template?.name ?? 'New scene'}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <div class="row">
        <button type="submit" class="primary">
          Open in the editor
        </button>
        <span class="hint">Nothing is created until you save.</span>
        {template && <OgrafDownload path={`/v1/templates/${template.id}/ograf`} fileName={template.id} />}
      </div>
    </form>
  );
}

function describeTemplate(t: TemplateInfo): string {
  const inputs = t.inputs.map((i) => i.name).join(', ');
  const triggers = t.triggers.length > 0 ? `; triggers ${t.triggers.join(', ')}` : '';
  return `layer ${t.layer}; inputs ${inputs || 'none'}${triggers}`;
}
