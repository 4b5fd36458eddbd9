/** The option fields the actions and feedbacks share. Dropdowns take a typed name too (allowCustom). */
import type { CompanionInputFieldDropdown, CompanionInputFieldTextInput, DropdownChoice } from '@companion-module/base';

export function dropdown(id: string, label: string, choices: DropdownChoice<string>[], tooltip?: string) {
  return {
    type: 'dropdown',
    id,
    label,
    choices,
    default: choices[0]?.id ?? '',
    allowCustom: true,
    ...(tooltip ? { tooltip } : {}),
  } satisfies CompanionInputFieldDropdown;
}

/** A dropdown whose first choice is "none" (the option may be left empty). */
export function optionalDropdown(id: string, label: string, none: string, choices: DropdownChoice<string>[]) {
  return dropdown(id, label, [{ id: '', label: none }, ...choices]);
}

export function textField(id: string, label: string, def = '', tooltip?: string) {
  return {
    type: 'textinput',
    id,
    label,
    default: def,
    useVariables: true,
    ...(tooltip ? { tooltip } : {}),
  } satisfies CompanionInputFieldTextInput;
}
