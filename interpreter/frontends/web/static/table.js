"use strict";
// One seat at a table. The join link's "#token" is this seat's key: it is sent once, over the
// WebSocket, and never put in a URL the browser requests. Every state the server sends is
// drawn whole; the server decides what is legal and refuses with its reason. A state holds the
// current deal and the running score; the rows of the deals finished are asked for once each
// ("deals"), and a finished deal's log and end only when the player opens it ("deal").
const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.hash.slice(1));
const tableId = location.pathname.split("/").pop();
const tarock = (window.tarock = { welcome: null, state: null, selected: [], refused: null, deals: [], asked: 0, review: null });
let socket = null;

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== "") node.textContent = text;
  return node;
}

function seatName(seat) {
  const s = tarock.state && tarock.state.seats[seat];
  return s ? s.name : `Seat ${seat}`;
}

function cardNode(id, tag = "span") {
  const info = tarock.welcome.cards[id] || { rank: id, name: id, symbol: "", trump: false, red: false };
  const node = el(tag, { class: "card" + (info.trump ? " trump" : "") + (info.red ? " red" : ""), "data-card": id, title: `${id}: ${info.name}` });
  node.append(el("span", { class: "rank" }, info.trump ? info.rank : info.symbol + info.rank));
  const named = info.trump ? (/^\d+$/.test(info.name) ? "" : info.name) : info.name;
  node.append(el("span", { class: "name" }, named));
  return node;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(action) {
  $("message").textContent = "";
  send({ type: "act", action });
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}`);
  socket.onopen = () => {
    tarock.asked = tarock.deals.length; // rows asked for on a socket that closed may never have come
    send({ type: "join", token, name: localStorage.getItem("tarock-name") || "" });
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => { $("prompt").textContent = "Connection lost: reconnecting…"; setTimeout(connect, 1500); };
}

function receive(message) {
  if (message.type === "welcome") {
    tarock.welcome = message;
    $("title").textContent = message.title;
    document.title = message.title;
    $("legend").textContent = message.legend;
  } else if (message.type === "state") {
    if (!tarock.state || tarock.state.step !== message.step || tarock.state.deal !== message.deal) tarock.selected = [];
    tarock.state = message;
    askDeals();
    draw();
  } else if (message.type === "deals") {
    for (const d of message.deals) tarock.deals[d.number - 1] = d;
    if (message.next !== null) send({ type: "deals", from: message.next });
    if (tarock.state) draw();
  } else if (message.type === "deal") {
    tarock.review = message;
    drawReview();
  } else if (message.type === "refused") {
    tarock.refused = message.reason;
    $("message").textContent = "Refused: " + message.reason;
  } else if (message.type === "error") {
    $("message").textContent = message.message;
    socket.onclose = null;
  }
}

function askDeals() {
  // The rows of deals finished since the last ask: each finished deal is fetched once.
  const finished = tarock.state.deals_finished;
  if (finished > tarock.asked) {
    send({ type: "deals", from: tarock.asked + 1 });
    tarock.asked = finished;
  }
}

function draw() {
  const st = tarock.state, view = st.view, you = st.you;
  const w = tarock.welcome;
  $("deal-info").textContent = `Deal ${st.deal} of ${st.deals_planned}` + (you === null ? " · spectator" : ` · you: ${seatName(you)}`);
  drawSeats(st, view, you);
  const contract = view.contract ? w.contracts[view.contract] || view.contract : null;
  $("contract").textContent = contract
    ? `${contract}` + (view.declarer !== null ? ` · lone player: ${seatName(view.declarer)}` : " · everyone for themselves")
    : (view.phase === "auction" ? "Bidding" : "");
  drawTrick(view);
  drawShown(view, you);
  drawTurn(st, view, you);
  drawResult(st);
  $("deals").replaceChildren(scoreTable(st));
  $("log").replaceChildren(...st.log.map((line) => el("li", {}, line.trim())));
}

function drawSeats(st, view, you) {
  const lastCall = {};
  for (const [seat, call] of view.calls) lastCall[seat] = call;
  $("seats").replaceChildren(...st.seats.map((s) => {
    const box = el("div", { class: "seat" + (view.to_act === s.seat ? " to-act" : "") + (you === s.seat ? " you" : ""), "data-seat": s.seat });
    const marks = [];
    if (view.dealer === s.seat) marks.push("dealer");
    if (view.declarer === s.seat) marks.push("★ lone player");
    if (view.sitting_out === s.seat) marks.push("sits out");
    box.append(el("span", { class: "name" }, s.name + (s.person ? "" : " 🤖")));
    box.append(el("div", {}, `${view.hand_sizes[s.seat]} cards · score ${s.score}`));
    if (marks.length) box.append(el("div", { class: "marks-line" }, marks.join(" · ")));
    if (lastCall[s.seat] !== undefined) box.append(el("div", { class: "call" }, `said: ${tarock.welcome.calls[lastCall[s.seat]] || lastCall[s.seat]}`));
    return box;
  }));
}

function drawTrick(view) {
  const trick = view.tricks.length ? view.tricks[view.tricks.length - 1] : null;
  const box = $("trick");
  box.replaceChildren();
  if (!trick) return;
  trick.cards.forEach((card, i) => {
    const cell = el("div", { class: "played" });
    cell.append(cardNode(card), el("div", {}, seatName(trick.seats[i])));
    box.append(cell);
  });
  if (trick.winner !== null) box.append(el("p", { class: "won" }, `Trick ${view.tricks.length} to ${seatName(trick.winner)}`));
}

function cardsLine(title, cards) {
  const part = el("div");
  part.append(el("p", {}, title));
  const row = el("div", { class: "cards" });
  for (const c of cards) row.append(cardNode(c));
  part.append(row);
  return part;
}

function drawShown(view, you) {
  const parts = [];
  if (view.laid_out && view.laid_out.length) parts.push(cardsLine("Laid out (announced):", view.laid_out));
  if (view.exposed && view.exposed.length) parts.push(cardsLine("Face up:", view.exposed));
  if (view.open_hand) parts.push(cardsLine(`${seatName(view.open_hand.seat)}'s open hand:`, view.open_hand.cards));
  if (view.talon && view.talon.length) parts.push(cardsLine("Talon:", view.talon));
  if (view.aside && view.aside.length) parts.push(cardsLine(view.phase === "over" ? "Put aside:" : "Your discards:", view.aside));
  if (view.phase === "auction" && view.talon_size) parts.push(el("p", {}, `Talon: ${view.talon_size} cards face down`));
  $("shown").replaceChildren(...parts);
}

function drawTurn(st, view, you) {
  const legal = st.legal;
  const plays = new Set(legal.filter((l) => l.action && l.action.play).map((l) => l.action.play));
  const template = legal.find((l) => l.choice);
  const buttons = legal.filter((l) => l.action && !l.action.play);
  const prompt = $("prompt");
  if (view.phase === "over") prompt.textContent = st.session_over ? "The session is over." : "The deal is over.";
  else if (you !== null && (legal.length)) prompt.textContent = template ? `Your turn: ${template.label}.` : plays.size ? "Your turn: play a card." : "Your turn.";
  else if (view.to_act !== null) prompt.textContent = `Waiting for ${seatName(view.to_act)}…`;
  else prompt.textContent = "";
  // The hand: in trick play a tap plays the card (an illegal one is sent too: the server says why not);
  // in a choice of several cards a tap picks or drops it.
  const hand = $("hand");
  hand.replaceChildren();
  const forbidden = new Set(template ? template.forbidden : []);
  for (const card of (view.hand || [])) {
    const node = cardNode(card, "button");
    node.type = "button";
    if (template) {
      if (forbidden.has(card)) node.classList.add("forbidden");
      if (tarock.selected.includes(card)) node.classList.add("selected");
      node.onclick = () => toggle(card, template);
    } else if (plays.size) {
      node.classList.add(plays.has(card) ? "legal" : "dim");
      node.onclick = () => act({ play: card });
    } else if (view.phase === "play" && you !== null) {
      node.onclick = () => act({ play: card });
    }
    hand.append(node);
  }
  const actions = $("actions");
  actions.replaceChildren();
  if (template) {
    const task = el("p", { class: "task" }, `${template.label}: ${tarock.selected.length} of ${template.count} chosen`
      + (template.forbidden.length ? ` · not allowed: ${template.forbidden.join(", ")}` : "") + ". Tap the cards.");
    const done = el("button", { type: "button", id: "confirm" }, template.choice === "keep" ? "Keep these" : "Put these aside");
    done.disabled = tarock.selected.length !== template.count;
    done.onclick = () => act({ [template.choice]: tarock.selected.slice() });
    actions.append(task, done);
  }
  for (const l of buttons) {
    const b = el("button", { type: "button", "data-action": JSON.stringify(l.action) }, l.label);
    b.onclick = () => act(l.action);
    actions.append(b);
  }
}

function toggle(card, template) {
  const i = tarock.selected.indexOf(card);
  if (i >= 0) tarock.selected.splice(i, 1);
  else if (tarock.selected.length < template.count) tarock.selected.push(card);
  draw();
}

function drawResult(st) {
  const box = $("result");
  box.hidden = !st.result;
  if (!st.result) return;
  $("result-lines").replaceChildren(...st.result.map((line) => el("li", {}, line)));
  const after = $("after");
  after.replaceChildren(scoreTable(st));
  if (!st.session_over && st.you !== null) {
    const next = el("button", { type: "button", id: "next-deal", class: "primary" }, "Deal the next one");
    next.onclick = () => send({ type: "next" });
    after.append(next);
  }
}

function scoreTable(st) {
  const table = el("table", { class: "scores" });
  const head = el("tr");
  head.append(el("th", {}, "Deal"), ...st.seats.map((s) => el("th", {}, s.name)), el("th", {}, "Record"));
  table.append(head);
  for (const d of tarock.deals) {
    if (!d) continue;
    const row = el("tr");
    row.append(el("td", {}, String(d.number)), ...d.payments.map((p) => el("td", {}, (p > 0 ? "+" : "") + p)));
    const cell = el("td");
    const show = el("button", { type: "button", class: "review", "data-deal": d.number }, "show");
    show.onclick = () => send({ type: "deal", number: d.number });
    cell.append(show);
    if (st.you !== null) {
      const link = el("button", { type: "button", class: "record" }, "download");
      link.onclick = () => download(d.number);
      cell.append(link);
    }
    row.append(cell);
    table.append(row);
  }
  const total = el("tr");
  total.append(el("th", {}, "Score"), ...st.seats.map((s) => el("th", {}, String(s.score))), el("th", {}, tarock.welcome.unit));
  table.append(total);
  return table;
}

function drawReview() {
  // A finished deal as this seat saw it at its end: the settlement, what happened, the cards turned over.
  const d = tarock.review, box = $("review");
  box.hidden = !d;
  if (!d) return;
  $("review-title").textContent = `Deal ${d.number} (dealer: ${seatName(d.dealer)})`;
  $("review-lines").replaceChildren(...d.lines.map((line) => el("li", {}, line)));
  const shown = [];
  if (d.view.talon && d.view.talon.length) shown.push(cardsLine("Talon:", d.view.talon));
  if (d.view.aside && d.view.aside.length) shown.push(cardsLine("Put aside:", d.view.aside));
  $("review-shown").replaceChildren(...shown);
  $("review-log").replaceChildren(...d.log.map((line) => el("li", {}, line.trim())));
}

async function download(number) {
  const response = await fetch(`/api/tables/${tableId}/records/${number}`, { headers: { "X-Seat-Token": token } });
  if (!response.ok) { $("message").textContent = (await response.json()).error; return; }
  const blob = await response.blob();
  const link = el("a", { href: URL.createObjectURL(blob), download: `deal-${number}.yaml` });
  document.body.append(link);
  link.click();
  link.remove();
}

$("review-close").onclick = () => { tarock.review = null; drawReview(); };
$("legend-button").onclick = () => {
  const legend = $("legend");
  legend.hidden = !legend.hidden;
  $("legend-button").setAttribute("aria-expanded", String(!legend.hidden));
};
connect();
