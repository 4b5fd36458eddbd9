/** The scene's elements in drawing order (later ones cover earlier ones): add, edit, reorder, remove. */
import { useState } from 'preact/hooks';
import type { ElementType } from '@onair/protocol';
import type { FieldError } from '../api.js';
import { ELEMENT_TYPES, newElement, type Obj } from './draft.js';
import { ElementCard } from './element-card.js';
import { ListSection, listEdit } from './list-section.js';

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
  const elements = listEdit(definition, 'elements', onChange);
  return (
    <ListSection
      name="elements"
      title="Elements"
      hint="Drawn in this order: a later element covers an earlier one. The form edits the common fields; opacity, rotation, shadows, gradients and a group's children are edited in the JSON view."
      errors={errors}
      keys={elements.keys}
      empty="No elements yet."
      add={
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
          <button type="button" onClick={() => elements.add(newElement(addType, definition))}>
            Add element
          </button>
        </div>
      }
    >
      {elements.items.map((element, index) => (
        <ElementCard
          key={index}
          element={element}
          index={index}
          count={elements.items.length}
          definition={definition}
          errors={errors}
          onChange={(next) => elements.replace(index, next)}
          onMove={(delta) => elements.move(index, delta)}
          onRemove={() => elements.remove(index)}
        />
      ))}
    </ListSection>
  );
}
