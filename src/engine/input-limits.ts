/** The bounds of input values, shared by the checks of single values and of list cells. */
export const MAX_TEXT_BYTES = 4096;
export const MAX_ABS_NUMBER = 1e15;
