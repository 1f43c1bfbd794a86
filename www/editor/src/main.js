// The playground's query editors, on CodeMirror 6. The page (Rust, Yew) owns the text: it
// mounts an editor into an element, hears every change, and tells the editor what it learned
// of the text — the language and dialect, parse errors and safety findings to mark, the schema
// to complete from. Everything here is display: no text is ever run or rendered as HTML.
//
// Bundled by `cargo xtask` with esbuild into one script that sets `globalThis.qevalEditor`.
//
// Each editor lives in a shadow root of its element. CodeMirror writes its styles at run time;
// in a shadow root they go to a constructed style sheet, which the page's Content Security
// Policy (`style-src 'self'`, no inline styles) lets through, where a <style> element in the
// document would be refused. The page's colour variables reach inside, so the editors follow
// light and dark.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { MSSQL, MySQL, PostgreSQL, SQLDialect, SQLite, StandardSQL, sql } from "@codemirror/lang-sql";
import { bracketMatching, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { Compartment, EditorState, Text } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { classHighlighter } from "@lezer/highlight";

import { kql, kqlWords } from "./kql.js";

/** BigQuery quotes names with backticks; the rest of its syntax reads as standard SQL here. */
const BigQuery = SQLDialect.define({ ...StandardSQL.spec, identifierQuotes: "`" });

/** qeval's dialect names (as in the Dialect menu and `--dialect`) to CodeMirror's dialects. */
const dialects = {
  generic: StandardSQL,
  ansi: StandardSQL,
  sqlite: SQLite,
  postgres: PostgreSQL,
  duckdb: PostgreSQL,
  snowflake: PostgreSQL,
  mysql: MySQL,
  mssql: MSSQL,
  bigquery: BigQuery,
};

/** Colours from the page's variables (see styles.css), so light and dark both hold. */
const look = EditorView.theme({
  "&": {
    minHeight: "11em",
    border: "1px solid var(--line)",
    borderRadius: "6px",
    background: "var(--panel)",
    color: "var(--ink)",
    fontSize: "13.5px",
  },
  "&.cm-focused": { outline: "2px solid var(--accent)", outlineOffset: "1px" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.5", minHeight: "11em" },
  ".cm-content": { caretColor: "var(--ink)", padding: "8px 0" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--ink)" },
  ".cm-gutters": {
    background: "var(--head)",
    color: "var(--muted)",
    borderRight: "1px solid var(--line)",
    borderRadius: "6px 0 0 6px",
  },
  ".cm-activeLine": { background: "color-mix(in srgb, var(--hover) 60%, transparent)" },
  ".cm-activeLineGutter": { background: "var(--hover)", color: "var(--ink)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground": {
    background: "var(--selected)",
  },
  "&.cm-focused .cm-matchingBracket": { background: "var(--ins)", outline: "1px solid var(--pass)" },
  "&.cm-focused .cm-nonmatchingBracket": { background: "var(--del)" },
  ".cm-tooltip": { background: "var(--panel)", color: "var(--ink)", border: "1px solid var(--line)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { background: "var(--accent)", color: "var(--on-color)" },
  ".cm-completionDetail": { color: "inherit", opacity: "0.8" },
  ".cm-diagnostic-error": { borderLeftColor: "var(--fail)" },
  ".cm-diagnostic-warning": { borderLeftColor: "var(--warn)" },
  ".cm-diagnosticSource": { color: "var(--muted)", opacity: "1" },
  ".tok-keyword": { color: "light-dark(#8b2bb9, #d2a8ff)", fontWeight: "600" },
  ".tok-string, .tok-string2": { color: "light-dark(#0a6b38, #7ee2a8)" },
  ".tok-number, .tok-atom, .tok-bool": { color: "light-dark(#a14f00, #ffb86b)" },
  ".tok-comment": { color: "var(--muted)", fontStyle: "italic" },
  ".tok-typeName": { color: "light-dark(#1b6fa8, #79c0ff)" },
  ".tok-operator, .tok-punctuation": { color: "light-dark(#4b5563, #b8bec8)" },
  ".tok-variableName2, .tok-propertyName": { color: "light-dark(#2456d8, #9ab8ff)" },
});

/** The open editors by element id. */
const editors = new Map();

/** Completion from the schema the page gives (`{ table: [column, ...] }`), read when asked:
 * the schema changes as the queries are typed (it is inferred from them), and a completion
 * list must survive that. After `name.`, a table's columns (all columns after an alias);
 * elsewhere its tables and every column, then, for KQL, the operators. */
function schemaCompletion(editor) {
  const column = (label, tables) => ({ label, type: "property", detail: tables.join(", ") });
  return (context) => {
    const schema = editor.settings.schema ?? {};
    const tablesOf = new Map();
    for (const [table, columns] of Object.entries(schema)) {
      for (const name of columns) tablesOf.set(name, [...(tablesOf.get(name) ?? []), table]);
    }
    const dotted = context.matchBefore(/[\w$]+\.[\w$]*/);
    if (dotted) {
      const [qualifier, partial] = dotted.text.split(".");
      const names = schema[qualifier] ?? [...tablesOf.keys()];
      return {
        from: dotted.to - partial.length,
        options: names.map((name) => column(name, tablesOf.get(name) ?? [qualifier])),
        validFor: /^[\w$]*$/,
      };
    }
    const word = context.matchBefore(editor.settings.language === "kql" ? /[\w-]+/ : /[\w$]+/);
    if (!word && !context.explicit) return null;
    const options = [
      ...Object.keys(schema).map((label) => ({ label, type: "type", detail: "table" })),
      ...[...tablesOf].map(([name, tables]) => column(name, tables)),
      ...(editor.settings.language === "kql" ? kqlWords.map((label) => ({ label, type: "keyword" })) : []),
    ];
    return { from: word ? word.from : context.pos, options, validFor: /^[\w$-]*$/ };
  };
}

/** The language for the settings: SQL in its dialect (its keywords complete too) or KQL, with
 * completion from the schema. */
function languageOf(editor) {
  const { language, dialect } = editor.settings;
  const source = { autocomplete: schemaCompletion(editor) };
  if (language === "kql") return [kql, kql.data.of(source)];
  const support = sql({ dialect: dialects[dialect] ?? StandardSQL, upperCaseKeywords: true });
  return [support, support.language.data.of(source)];
}

/** Brackets nested deeper than this switch highlighting off: a parser takes quadratic time on
 * text such as 20,000 opening brackets, and qeval refuses to analyse far less deep text anyway. */
const DEEPEST_HIGHLIGHTED = 256;

function tooDeep(doc) {
  let depth = 0;
  for (const text of doc.iter()) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 40 || c === 91 || c === 123) {
        if (++depth > DEEPEST_HIGHLIGHTED) return true;
      } else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
    }
  }
  return false;
}

/** The language extension for text that is (`plain`) or is not nested too deep to highlight. */
function languageFor(editor, plain) {
  editor.plain = plain;
  return plain ? [] : languageOf(editor);
}

/** A 1-based line and column (in characters, as qeval counts them) as a document offset. */
function offsetOf(doc, line, column) {
  if (doc.lines === 0) return 0;
  const at = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const before = [...at.text].slice(0, Math.max(column - 1, 0)).join("");
  return at.from + Math.min(before.length, at.length);
}

/** qeval's findings as CodeMirror diagnostics. A finding without an end covers one word. */
function diagnosticsOf(doc, markers) {
  return markers.map((marker) => {
    const from = offsetOf(doc, marker.line, marker.column);
    let to = marker.end_line ? offsetOf(doc, marker.end_line, marker.end_column) : from;
    if (to <= from) {
      const rest = doc.sliceString(from, Math.min(from + 64, doc.length));
      to = from + Math.max(/^\w*/.exec(rest)[0].length, Math.min(1, rest.length));
    }
    return { from, to, severity: marker.severity, message: marker.message, source: marker.source };
  });
}

function mount(host, id, settings) {
  unmount(id);
  const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  const language = new Compartment();
  const editor = { settings: { ...settings }, language };
  editor.view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc: settings.text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        autocompletion({ icons: false }),
        highlightActiveLine(),
        lintGutter(),
        syntaxHighlighting(classHighlighter),
        look,
        // Tab is left to the browser, so the keyboard can leave the editor.
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({
          // A label outside the shadow root cannot name what is inside it.
          "aria-label": settings.label,
          "data-testid": `${id}-editor`,
          spellcheck: "false",
          autocorrect: "off",
          autocapitalize: "off",
        }),
        language.of(languageFor(editor, tooDeep(Text.of(settings.text.split("\n"))))),
        // Switches highlighting off and on as the text's nesting crosses the limit.
        EditorState.transactionExtender.of((tr) => {
          const plain = tr.docChanged && tooDeep(tr.newDoc);
          if (!tr.docChanged || plain === editor.plain) return null;
          return { effects: language.reconfigure(languageFor(editor, plain)) };
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) settings.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  editors.set(id, editor);
}

function unmount(id) {
  editors.get(id)?.view.destroy();
  editors.delete(id);
}

/** Replaces the text when it differs from what the editor holds (a link, an example, a reset). */
function setText(id, text) {
  const view = editors.get(id)?.view;
  if (!view || view.state.doc.toString() === text) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** Changes the language, dialect or schema: `{ language, dialect, schema }`, any of them. A new
 * schema is read at the next completion; a new language or dialect re-reads the text. */
function configure(id, changes) {
  const editor = editors.get(id);
  if (!editor) return;
  const before = editor.settings;
  editor.settings = { ...before, ...changes };
  if (editor.settings.language !== before.language || editor.settings.dialect !== before.dialect) {
    editor.view.dispatch({ effects: editor.language.reconfigure(languageFor(editor, editor.plain)) });
  }
}

/** Marks findings: `[{ line, column, end_line?, end_column?, severity, message, source }]`. */
function setMarkers(id, markers) {
  const view = editors.get(id)?.view;
  if (!view) return;
  view.dispatch(setDiagnostics(view.state, diagnosticsOf(view.state.doc, markers)));
}

/** Puts the cursor at a 1-based line and column, in view, and focuses the editor. */
function focusAt(id, line, column) {
  const view = editors.get(id)?.view;
  if (!view) return;
  const at = offsetOf(view.state.doc, line, column);
  view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
  view.focus();
}

function focus(id) {
  editors.get(id)?.view.focus();
}

globalThis.qevalEditor = { mount, unmount, setText, configure, setMarkers, focus, focusAt };
