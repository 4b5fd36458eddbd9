/**
 * The definition being edited and the JSON view's text, kept in sync: a form edit rewrites the text; typed text
 * replaces the draft as soon as it parses to an object, and until then the draft stays as it was and the
 * problem is said.
 */
import { useState } from 'preact/hooks';
import { draftText, parseDraft, type Obj } from './draft.js';

export interface Draft {
  draft: Obj;
  text: string;
  /** Why the text is not a definition; null when it parses. */
  parseError: string | null;
  setDraft: (draft: Obj) => void;
  setText: (text: string) => void;
}

export function useDraft(initial: Obj): Draft {
  const [state, setState] = useState(() => ({
    draft: initial,
    text: draftText(initial),
    parseError: null as string | null,
  }));
  return {
    ...state,
    setDraft: (draft) => setState({ draft, text: draftText(draft), parseError: null }),
    setText: (text) =>
      setState((s) => {
        const parsed = parseDraft(text);
        return 'draft' in parsed
          ? { draft: parsed.draft, text, parseError: null }
          : { draft: s.draft, text, parseError: parsed.error };
      }),
  };
}
