"use strict";
// The scribe: the browser side of `tarock observe`. Each entry goes to the server, which checks
// it against everything known so far and answers with what it said, a question if the entry
// departs from the ruleset, and the record so far.
const $ = (id) => document.getElementById(id);
let rulesets = [];
let scribe = null;

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

async function post(url, body) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

function showRuleset() {
  const rs = rulesets.find((r) => r.name === $("ruleset").value);
  $("players").replaceChildren(...rs.players.map((n) => el("option", { value: n }, String(n))));
  $("players").value = String(rs.usual);
}

function show(state) {
  scribe = state.scribe;
  $("error").textContent = "";
  $("prompt").textContent = state.prompt;
  for (const text of state.said) $("said").prepend(el("li", {}, text));
  $("entries").textContent = state.entries;
  $("departures").textContent = state.departures.length;
  $("record").textContent = state.record;
  $("download").href = "data:application/x-yaml;charset=utf-8," + encodeURIComponent(state.record);
  const asking = state.question !== null;
  $("asking").hidden = !asking;
  $("entry").hidden = asking;
  if (asking) {
    $("question").textContent = state.question;
    const note = state.question.startsWith("what the table says");
    $("choice").hidden = note;
    $("noting").hidden = !note;
    (note ? $("note") : $("choice").querySelector("button")).focus();
  } else {
    $("line").focus();
  }
}

async function send(body) {
  try {
    show(await post(`/api/scribes/${scribe}`, body));
  } catch (error) {
    $("error").textContent = error.message;
  }
}

$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const state = await post("/api/scribes", {
      ruleset: $("ruleset").value, players: Number($("players").value), dealer: Number($("dealer").value),
      by: $("by").value, where: $("where").value,
    });
    $("new-game").hidden = true;
    $("writing").hidden = false;
    show(state);
  } catch (error) {
    $("error").textContent = error.message;
  }
});

$("entry").addEventListener("submit", (event) => {
  event.preventDefault();
  const line = $("line").value;
  $("line").value = "";
  if (line.trim()) send({ line });
});

for (const button of $("choice").querySelectorAll("button")) {
  button.addEventListener("click", () => send({ answer: button.dataset.answer }));
}

$("asking").addEventListener("submit", (event) => {
  event.preventDefault();
  const note = $("note").value;
  $("note").value = "";
  send({ answer: note });
});

(async () => {
  const answer = await (await fetch("/api/rulesets")).json();
  rulesets = answer.rulesets;
  $("ruleset").replaceChildren(...rulesets.map((r) => el("option", { value: r.name }, r.title)));
  $("ruleset").addEventListener("change", showRuleset);
  showRuleset();
})();
