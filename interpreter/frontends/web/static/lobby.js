"use strict";
// The lobby: choose a game, its readings and options, the table size and the seats people play;
// the server answers with one secret join link per person.
const $ = (id) => document.getElementById(id);
let rulesets = [];

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function chosen() { return rulesets.find((r) => r.name === $("ruleset").value); }

function showRuleset() {
  const rs = chosen();
  const players = $("players");
  players.replaceChildren(...rs.players.map((n) => el("option", { value: n }, String(n))));
  players.value = String(rs.usual);
  $("deals").value = rs.deals || rs.usual;
  const box = $("choices");
  box.replaceChildren(el("legend", {}, "Readings and options"));
  for (const group of rs.choices) {
    const label = el("label", {}, group.question + " ");
    const select = el("select", { "data-choice": group.name });
    for (const c of group.choices) {
      const option = el("option", { value: c }, c.replaceAll("_", " ") + (c === group.default ? " (usual)" : ""));
      select.append(option);
    }
    select.value = group.default;
    label.append(select);
    box.append(label);
  }
  box.hidden = rs.choices.length === 0;
  showSeats();
}

function showSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  box.replaceChildren(el("legend", {}, "Seats played by people (the others by bots)"));
  for (let s = 0; s < n; s++) {
    const label = el("label");
    const box2 = el("input", { type: "checkbox", "data-seat": s });
    if (s === 0) box2.checked = true;
    const name = el("input", { type: "text", "data-name": s, placeholder: `Seat ${s}`, maxlength: 24, size: 10, "aria-label": `name at seat ${s}` });
    label.append(box2, ` Seat ${s} `, name);
    box.append(label);
  }
}

async function openTable(event) {
  event.preventDefault();
  $("error").textContent = "";
  const options = {};
  for (const select of document.querySelectorAll("[data-choice]")) options[select.dataset.choice] = select.value;
  const people = [...document.querySelectorAll("[data-seat]")].filter((b) => b.checked).map((b) => Number(b.dataset.seat));
  const names = {};
  for (const input of document.querySelectorAll("[data-name]")) if (input.value.trim()) names[input.dataset.name] = input.value.trim();
  const body = { ruleset: $("ruleset").value, players: Number($("players").value), deals: Number($("deals").value), options, people, names, bots: $("bots").value };
  if ($("bots").value === "search") body.bot_seconds = Number($("bot-seconds").value);
  const standIn = $("stand-in").value;
  body.stand_in = standIn === "never" ? "never" : Number(standIn);
  const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) { $("error").textContent = answer.error; return; }
  const list = $("link-list");
  list.replaceChildren();
  for (const link of answer.links) {
    const url = new URL(link.url, location.href).href;
    const item = el("li", {}, `${link.name}: `);
    item.append(el("a", { href: url, target: "_blank", "data-seat-link": link.seat }, url));
    item.append(...shareButtons(url, `${link.name} at ${chosen().title}`));  // Anna at Cego, Seat 2 at Cego
    list.append(item);
  }
  const spectators = new URL(answer.spectators, location.href).href;
  $("spectators").href = spectators;
  $("spectators").textContent = spectators;
  for (const old of document.querySelectorAll("#spectator-line .copy")) old.remove();
  $("spectator-line").append(...shareButtons(spectators, `Watching ${chosen().title}`));
  $("links").hidden = false;
}

function shareButtons(url, title) {
  // Copy the link (the clipboard, or the text selected for Ctrl-C where the page may not write
  // it: an address other than localhost without https), and Share where the phone offers it.
  const buttons = [];
  const copy = el("button", { type: "button", class: "copy small", "data-copy": url }, "Copy");
  copy.onclick = async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied ✓";
    } catch (e) {
      const field = el("input", { value: url, readonly: "", class: "copy-field", "aria-label": "the link, selected" });
      copy.replaceWith(field);
      field.focus();
      field.select();
    }
  };
  buttons.push(copy);
  if (navigator.share) {
    const share = el("button", { type: "button", class: "copy small", "data-share": url }, "Share");
    share.onclick = () => navigator.share({ title, url }).catch(() => {});
    buttons.push(share);
  }
  return buttons;
}

async function start() {
  const response = await fetch("/api/rulesets");
  rulesets = (await response.json()).rulesets;
  $("ruleset").replaceChildren(...rulesets.map((r) => el("option", { value: r.name }, `${r.title} (${r.name})`)));
  $("ruleset").addEventListener("change", showRuleset);
  $("players").addEventListener("change", showSeats);
  $("bots").addEventListener("change", () => { $("thinking").hidden = $("bots").value !== "search"; });
  $("new-table").addEventListener("submit", openTable);
  showRuleset();
}
start();
