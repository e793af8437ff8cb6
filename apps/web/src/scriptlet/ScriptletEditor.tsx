import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from "@codemirror/language";
import { type Diagnostic, linter, lintGutter, setDiagnostics } from "@codemirror/lint";
import { EditorState } from "@codemirror/state";
import { EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { useEffect, useRef } from "react";
import type { Mark } from "./diagnostics.js";

interface Props {
  value: string;
  onChange(value: string): void;
  /** The server's verdict on the current text, drawn at its line and column. */
  mark: Mark | null;
  labelledBy: string;
  describedBy: string;
}

/**
 * The scriptlet editor: CodeMirror 6 with its Python grammar (Starlark is
 * Python's syntax), line numbers, undo and bracket matching. Errors come
 * from the server (the page never bundles an interpreter) and are drawn as
 * lint diagnostics. Tab is left to the browser, so the keyboard can leave
 * the editor; indent with the editor's own Ctrl-] / Ctrl-[.
 */
export function ScriptletEditor({ value, onChange, mark, labelledBy, describedBy }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is created once; `value` seeds it.
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          bracketMatching(),
          indentOnInput(),
          highlightActiveLine(),
          python(),
          syntaxHighlighting(defaultHighlightStyle),
          // Diagnostics are pushed (setDiagnostics) from the server's answer; the linter is only their home.
          linter(null),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.contentAttributes.of({
            "aria-labelledby": labelledBy,
            "aria-describedby": describedBy,
            "aria-multiline": "true",
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  // Text set from outside (reset, "load current") replaces the document.
  useEffect(() => {
    const editor = view.current;
    if (editor === null || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (editor === null) return;
    const length = editor.state.doc.length;
    const diagnostics: Diagnostic[] =
      mark === null || mark.from > length
        ? []
        : [{ from: mark.from, to: Math.min(mark.to, length), severity: "error", message: mark.message }];
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [mark]);

  return <div className="editor" ref={host} />;
}
