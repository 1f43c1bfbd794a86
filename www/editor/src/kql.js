// KQL (Kusto Query Language) highlighting: a small stream tokenizer, since CodeMirror has no KQL
// package. It colours what a reader scans for: the pipes, the operators after them, strings,
// numbers with their timespan units, comments, and function calls.
import { StreamLanguage } from "@codemirror/language";

/** Tabular operators and the words inside them. Names are case-sensitive in KQL. */
const keywords = new Set(
  (
    "where filter project project-away project-keep project-rename project-reorder extend " +
    "summarize by take limit top top-nested sort order asc desc nulls first last join kind on " +
    "union count distinct let datatable range from to step mv-expand mv-apply parse parse-where " +
    "evaluate render lookup as and or not between in !in has !has has_any has_all contains " +
    "!contains startswith !startswith endswith !endswith matches regex hasprefix hassuffix " +
    "print search find invoke materialize getschema sample sample-distinct serialize scan " +
    "make-series partition fork facet with inner outer leftouter rightouter fullouter " +
    "leftanti rightanti leftsemi rightsemi innerunique anti semi"
  ).split(" "),
);
const atoms = new Set(["true", "false", "null"]);
const types = new Set(
  "bool boolean int long real double decimal string datetime date timespan time guid dynamic".split(" "),
);

/** One token of KQL; `state` remembers an unfinished block of verbatim text. */
function token(stream) {
  if (stream.eatSpace()) return null;
  if (stream.match("//")) {
    stream.skipToEnd();
    return "comment";
  }
  // Verbatim strings (@"..."), plain strings with escapes, and multi-line ``` blocks.
  if (stream.match(/^@"(?:[^"]|"")*"?/) || stream.match(/^@'(?:[^']|'')*'?/)) return "string";
  if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/)) return "string";
  if (stream.match(/^\d+(?:\.\d+)?(?:e[+-]?\d+)?(?:d|h|m|s|ms|microsecond|tick|days?|hours?|minutes?|seconds?)?\b/i)) {
    return "number";
  }
  if (stream.match("|")) return "separator";
  if (stream.match(/^(?:==|!=|=~|!~|<=|>=|<>|=>|[-+*/%<>=!])/)) return "operator";
  if (stream.match(/^[()[\]{},;.:]/)) return "punctuation";
  // Words may carry a dash (project-away) or a leading ! (!contains).
  const word = stream.match(/^!?[A-Za-z_][\w-]*/);
  if (word) {
    const text = word[0];
    // A call has its bracket right after the name: `count()` calls, `in ("a")` is an operator.
    if (stream.peek() === "(" && !types.has(text)) return "variableName.function";
    if (keywords.has(text)) return "keyword";
    if (atoms.has(text)) return "atom";
    if (types.has(text)) return "typeName";
    return "variableName";
  }
  stream.next();
  return null;
}

export const kql = StreamLanguage.define({
  name: "kql",
  token,
  languageData: {
    commentTokens: { line: "//" },
    closeBrackets: { brackets: ["(", "[", "{", "'", '"'] },
  },
});

/** The words offered for completion in a KQL query. */
export const kqlWords = [...keywords].filter((word) => !word.startsWith("!"));
