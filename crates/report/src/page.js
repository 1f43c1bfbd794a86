// The report's table and detail view. Every piece of record text is set with textContent: it
// is data, never markup.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("qeval-data").textContent);
  const records = data.records;
  const $ = (id) => document.getElementById(id);
  const el = (tag, text, cls) => {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  };
  const score = (r, k) => (r.qas_evaluation ? r.qas_evaluation[k] : null);
  const fmt = (x) => (typeof x === "number" ? x.toFixed(2) : "—");
  const COLUMNS = [
    ["test_id", "Test", (r) => r.test_id],
    ["agent_used", "Agent", (r) => r.agent_used || ""],
    ["difficulty", "Difficulty", (r) => r.difficulty || ""],
    ["final_score", "Final", (r) => score(r, "final_score")],
    ["semantic_score", "Semantic", (r) => score(r, "semantic_score")],
    ["execution_score", "Execution", (r) => score(r, "execution_score")],
    ["datatype_score", "Datatype", (r) => score(r, "datatype_score")],
    ["passed", "Result", (r) => score(r, "passed")],
  ];
  const LIMIT = 500;
  let sortKey = "test_id";
  let sortUp = true;

  function fill(select, values) {
    for (const v of [...new Set(values)].filter((v) => v).sort()) select.append(el("option", v));
  }
  fill($("f-agent"), records.map((r) => r.agent_used));
  fill($("f-difficulty"), records.map((r) => r.difficulty));

  function matches(r) {
    if ($("f-failed").checked && score(r, "passed") !== false) return false;
    const agent = $("f-agent").value;
    if (agent && r.agent_used !== agent) return false;
    const difficulty = $("f-difficulty").value;
    if (difficulty && r.difficulty !== difficulty) return false;
    const text = $("f-search").value.trim().toLowerCase();
    if (text) {
      const hay = [r.test_id, r.question, r.generated_sql, r.expected_sql].join(" ").toLowerCase();
      if (!hay.includes(text)) return false;
    }
    return true;
  }

  function compare(a, b) {
    const get = COLUMNS.find((c) => c[0] === sortKey)[2];
    const x = get(a);
    const y = get(b);
    let order;
    if (typeof x === "number" && typeof y === "number") order = x - y;
    else order = String(x ?? "").localeCompare(String(y ?? ""), undefined, { numeric: true });
    return sortUp ? order : -order;
  }

  function render() {
    const rows = records.map((r, i) => [r, i]).filter(([r]) => matches(r));
    rows.sort((a, b) => compare(a[0], b[0]));
    const body = $("rows");
    body.replaceChildren();
    for (const [r, i] of rows.slice(0, LIMIT)) {
      const tr = el("tr");
      tr.dataset.index = i;
      for (const [key, , get] of COLUMNS) {
        const v = get(r);
        if (key === "passed") {
          const unsafe = r.qas_evaluation && r.qas_evaluation.unsafe === true;
          const label = v === true ? "PASS" : v === false ? (unsafe ? "FAIL · UNSAFE" : "FAIL") : "—";
          tr.append(el("td", label, v ? "pass" : "fail"));
        }
        else if (typeof v === "number" && key !== "test_id") tr.append(el("td", fmt(v)));
        else tr.append(el("td", v));
      }
      tr.addEventListener("click", () => detail(i));
      body.append(tr);
    }
    $("count").textContent =
      rows.length > LIMIT ? `showing ${LIMIT} of ${rows.length} matching tests` : `${rows.length} matching tests`;
  }

  // One query's pieces as the Rust side marked them: `[text, changed]`, changed ones in `mark`.
  function code(parts, mark) {
    const pre = el("pre");
    for (const [text, changed] of parts) pre.append(changed ? el(mark, text) : document.createTextNode(text));
    return pre;
  }

  // A result as the Rust side laid it out (`view`: columns, rows of cells with their marks), or
  // its JSON when it did not read as a result.
  // A judge's explanation that uses Markdown, read by qeval into blocks and spans (see
  // markdown.rs); each piece is set as text.
  function explanation(blocks) {
    const box = el("div", null, "markdown");
    const tags = { plain: null, strong: "strong", emphasis: "em", code: "code" };
    const line = (tag, spans) => {
      const node = el(tag);
      for (const s of spans) node.append(tags[s.style] ? el(tags[s.style], s.text) : s.text);
      return node;
    };
    for (const b of blocks) {
      if (b.block === "paragraph") box.append(line("p", b.spans));
      else if (b.block === "code") box.append(el("pre", b.text, "code"));
      else {
        const list = el(b.ordered ? "ol" : "ul");
        for (const item of b.items) list.append(line("li", item));
        box.append(list);
      }
    }
    return box;
  }

  function resultView(value, view) {
    if (view) {
      const table = el("table", null, "result");
      const head = el("tr");
      for (const c of view.columns) head.append(el("th", c));
      table.append(head);
      for (const row of view.rows) {
        const tr = el("tr", null, row.unmatched ? "unmatched" : null);
        for (const cell of row.cells) {
          const td = el("td", cell.text, [cell.null ? "null" : "", cell.differs ? "differs" : ""].join(" ").trim() || null);
          if (cell.differs) td.title = "Differs from the other result's paired row";
          tr.append(td);
        }
        table.append(tr);
      }
      const box = el("div");
      box.append(table);
      const shown = view.rows.length;
      const rows = (n) => `${n} row${n === 1 ? "" : "s"}`;
      if (view.unmatched_rows > 0 || shown < view.total_rows) {
        const parts = [];
        if (view.unmatched_rows > 0) parts.push(`${rows(view.unmatched_rows)} not in the other result (marked)`);
        if (shown < view.total_rows) parts.push(`first ${shown} of ${rows(view.total_rows)} shown`);
        box.append(el("p", parts.join("; ") + ".", "note"));
      }
      return box;
    }
    return el("pre", value === undefined || value === null ? "(none)" : JSON.stringify(value, null, 2));
  }

  const KNOWN = new Set(["test_id", "question", "agent_used", "difficulty", "expected_sql", "generated_sql", "expected_results", "actual_results", "qas_evaluation"]);

  function detail(index) {
    const r = records[index];
    const box = $("detail");
    box.replaceChildren();
    box.hidden = false;
    box.append(el("h2", `Test ${r.test_id}`));
    box.append(el("p", r.question || "(no question)"));
    const [left, right] = data.diffs[index] || [[], []];
    const side = el("div", null, "side");
    const a = el("div");
    a.append(el("h3", "Expected query"), code(left, "del"));
    const b = el("div");
    b.append(el("h3", "Generated query"), code(right, "ins"));
    side.append(a, b);
    box.append(side);
    const results = el("div", null, "side");
    const ra = el("div");
    const [expectedView, actualView] = data.results[index] || [];
    ra.append(el("h3", "Expected results"), resultView(r.expected_results, expectedView));
    const rb = el("div");
    rb.append(el("h3", "Actual results"), resultView(r.actual_results, actualView));
    results.append(ra, rb);
    box.append(results);
    const q = r.qas_evaluation;
    if (q) {
      box.append(el("h3", `Scores: final ${fmt(q.final_score)}, ${q.passed ? "PASS" : "FAIL"}${q.unsafe === true ? " · UNSAFE: the generated query is not read-only" : ""}`));
      const list = el("ul");
      const b2 = q.breakdown || {};
      const semantic = el("li", `Semantic ${fmt(q.semantic_score)}: `);
      const blocks = data.explanations[index];
      if (blocks) semantic.append(explanation(blocks));
      else semantic.append(b2.semantic_explanation || "");
      list.append(semantic);
      list.append(el("li", `Execution ${fmt(q.execution_score)}: ${b2.execution_explanation || ""}`));
      list.append(el("li", `Datatype ${fmt(q.datatype_score)}: ${b2.datatype_explanation || ""}`));
      box.append(list);
    }
    const extra = Object.fromEntries(Object.entries(r).filter(([k]) => !KNOWN.has(k)));
    if (Object.keys(extra).length) box.append(el("h3", "Other fields"), el("pre", JSON.stringify(extra, null, 2)));
    box.scrollIntoView({ block: "nearest" });
  }

  const head = $("head");
  for (const [key, label] of COLUMNS) {
    const th = el("th", label);
    th.addEventListener("click", () => {
      sortUp = sortKey === key ? !sortUp : true;
      sortKey = key;
      render();
    });
    head.append(th);
  }
  for (const id of ["f-failed", "f-agent", "f-difficulty", "f-search"]) $(id).addEventListener("input", render);
  $("show-failed").addEventListener("click", () => {
    $("f-failed").checked = true;
    render();
  });
  $("show-all").addEventListener("click", () => {
    $("f-failed").checked = false;
    $("f-agent").value = "";
    $("f-difficulty").value = "";
    $("f-search").value = "";
    render();
  });
  render();
})();
