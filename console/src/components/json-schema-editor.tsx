import { syntaxTree } from '@codemirror/language';
import { type Diagnostic, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type { SyntaxNode } from '@lezer/common';
import { basicSetup } from 'codemirror';
import { jsonSchema } from 'codemirror-json-schema';
import { useEffect, useRef } from 'react';

/** A place in the text the server refused, as its problem document names it (`missions.0.key`). */
export interface PlaceProblem {
  path: string;
  message: string;
}

export interface JsonSchemaEditorProps {
  /** The accessible name of the text area. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  schema: Record<string, unknown> | undefined;
  readOnly: boolean;
  /** Shown in the text at their place, beside the editor's own schema checks. */
  problems: readonly PlaceProblem[];
  /** Set to a path to move the cursor there (and focus the editor). */
  reveal: { path: string } | null;
}

/**
 * The nonce the gateway gave this page (`<meta property="csp-nonce">`): CodeMirror puts it on the
 * styles it injects, which the page's Content-Security-Policy admits only with it.
 */
const cspNonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';

const VALUES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

const childrenOf = (node: SyntaxNode) => {
  const children: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
  return children;
};

/**
 * The text span of a path (`missions.0.key`), or of its nearest enclosing value present in the text,
 * found in the JSON syntax tree.
 */
function spanOf(state: EditorState, path: string): { from: number; to: number } {
  let value = childrenOf(syntaxTree(state).topNode).find((n) => VALUES.has(n.name));
  let span = { from: 0, to: Math.min(1, state.doc.length) };
  for (const segment of path === '' ? [] : path.split('.')) {
    if (!value) break;
    let next: SyntaxNode | undefined;
    if (value.name === 'Object') {
      const property = childrenOf(value).find((p) => {
        const name = p.name === 'Property' ? p.getChild('PropertyName') : null;
        return name !== null && state.sliceDoc(name.from + 1, name.to - 1) === segment;
      });
      if (property) {
        span = { from: property.from, to: property.to };
        next = childrenOf(property).find((n) => VALUES.has(n.name));
      }
    } else if (value.name === 'Array') {
      next = childrenOf(value).filter((n) => VALUES.has(n.name))[Number(segment)];
      if (next) span = { from: next.from, to: next.to };
    }
    value = next;
  }
  return span;
}

/**
 * CodeMirror 6 editing JSON against a JSON Schema (codemirror-json-schema: completion of keys and
 * values, checks as you type, descriptions on hover). Loaded on demand, so only the content pages
 * carry its weight.
 */
export default function JsonSchemaEditor(props: JsonSchemaEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is rebuilt only when schema or mode change; text follows below.
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          EditorView.cspNonce.of(cspNonce),
          basicSetup,
          jsonSchema(props.schema as Parameters<typeof jsonSchema>[0]),
          EditorView.lineWrapping,
          EditorState.readOnly.of(props.readOnly),
          EditorView.editable.of(!props.readOnly),
          EditorView.contentAttributes.of({ 'aria-label': props.label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChange.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [props.schema, props.readOnly, props.label]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === props.value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.value } });
  }, [props.value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const diagnostics: Diagnostic[] = props.problems.map((p) => ({
      ...spanOf(editor.state, p.path),
      severity: 'error',
      source: 'server',
      message: p.message,
    }));
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [props.problems]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || !props.reveal) return;
    const { from } = spanOf(editor.state, props.reveal.path);
    editor.dispatch({ selection: { anchor: from }, scrollIntoView: true });
    editor.focus();
  }, [props.reveal]);

  return <div className="code-editor" ref={host} />;
}
