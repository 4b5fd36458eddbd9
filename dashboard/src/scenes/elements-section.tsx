/** The scene's elements in drawing order (later ones cover earlier ones): add, edit, reorder, remove. */
import { useState } from 'preact/hooks';
import type { ElementType } from '@onair/protocol';
import type { FieldError } from '../api.js';
import { ELEMENT_TYPES, listOf, moved, newElement, removed, replaced, withKey, type Obj } from './draft.js';
import { ElementCard } from './element-card.js';
import { OtherErrors } from './fields.js';
import { unshownErrors } from './path-errors.js';

export function ElementsSection({
  definition,
  errors,
  onChange,
}: {
  definition: Obj;
  errors: readonly FieldError[];
  onChange: (definition: Obj) => void;
}) {
  const [addType, setAddType] = useState<ElementType>('text');
  const elements = listOf(definition, 'elements');
  const setElements = (next: unknown[]) => onChange(withKey(definition, 'elements', next));
  // Errors about the list itself (too many elements), not about one of them.
  const listErrors = unshownErrors(
    errors,
    'definition.elements',
    elements.map((_, i) => String(i)),
  );
  return (
    <section class="editor-section" aria-labelledby="elements-title">
      <h2 id="elements-title">Elements</h2>
      <p class="hint">
        Drawn in this order: a later element covers an earlier one. The form edits the common fields; opacity, rotation,
        shadows, gradients and a group's children are edited in the JSON view.
      </p>
      <OtherErrors where="the elements" errors={listErrors} />
      {elements.length === 0 && <p class="empty">No elements yet.</p>}
      {elements.map((element, index) => (
        <ElementCard
          key={index}
          element={element}
          index={index}
          count={elements.length}
          definition={definition}
          errors={errors}
          onChange={(next) => setElements(replaced(elements, index, next))}
          onMove={(delta) => setElements(moved(elements, index, delta))}
          onRemove={() => setElements(removed(elements, index))}
        />
      ))}
      <div class="row add-row">
        <label class="inline">
          New element type
          <select value={addType} onChange={(e) => setAddType(e.currentTarget.value as ElementType)}>
            {ELEMENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setElements([...elements, newElement(addType, definition)])}>
          Add element
        </button>
      </div>
    </section>
  );
}
