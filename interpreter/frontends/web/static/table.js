"use strict";
// One seat at a table. The join link's "#token" is this seat's key: it is sent once, over the
// WebSocket, and never put in a URL the browser requests. Every state the server sends is
// drawn whole; the server decides what is legal and refuses with its reason. A state holds the
// current deal and the running score; the rows of the deals finished are asked for once each
// ("deals"), and a finished deal's log and end only when the player opens it ("deal").
const $ = (id) => document.getElementById(id);
const token = decodeURIComponent(location.hash.slice(1));
const tableId = location.pathname.split("/").pop();
const tarock = (window.tarock = {
  welcome: null, state: null, selected: [], refused: null, deals: [], asked: 0, review: null,
  waiting: null, // the out-of-turn offer the player chose to let pass (its actions, as text)
  peek: false, // the last trick shown again while the next one is played
  nudged: null, // the turn last announced (deal, step), so that each turn is announced once
  sound: localStorage.getItem("tarock-sound") === "on",
});
let socket = null;
let audio = null;

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

function storedName() { return localStorage.getItem("tarock-name") || ""; }

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}`);
  socket.onopen = () => {
    tarock.asked = tarock.deals.length; // rows asked for on a socket that closed may never have come
    send({ type: "join", token, name: storedName() });
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
    // A person who has not told this browser a name yet is asked for one (the lobby's is offered).
    $("naming").hidden = message.you === null || storedName() !== "";
  } else if (message.type === "state") {
    if (!tarock.state || tarock.state.step !== message.step || tarock.state.deal !== message.deal) {
      tarock.selected = [];
      tarock.peek = false;
    }
    const first = !tarock.state;
    tarock.state = message;
    if (first && message.you !== null && !$("naming").hidden) $("name").value = message.seats[message.you].name;
    askDeals();
    draw();
    nudge();
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

// -- whose turn: the seat's own choices, or an offer to speak out of turn -------------------------
function turn(st) {
  const you = st.you, view = st.view;
  if (you === null || !st.legal.length || view.phase === "over") return null;
  return view.to_act === you ? "turn" : "offer";
}

function offerKey(st) { return JSON.stringify(st.legal.map((l) => l.action || l.choice)); }

function nudge() {
  // Once per turn: the tab's title, the seat's box, and a sound if the player switched it on.
  const st = tarock.state, kind = turn(st);
  const key = kind === "turn" ? `${st.deal}:${st.step}` : null;
  document.title = (kind === "turn" ? "● Your turn · " : "") + (tarock.welcome ? tarock.welcome.title : "Tarock");
  if (!key || key === tarock.nudged) return;
  tarock.nudged = key;
  document.body.classList.remove("nudge");
  void document.body.offsetWidth; // restart the animation
  document.body.classList.add("nudge");
  if (tarock.sound) beep();
  if (navigator.vibrate && tarock.sound) navigator.vibrate(120);
}

function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
  } catch (e) { /* no sound on this browser */ }
}

function draw() {
  const st = tarock.state, view = st.view, you = st.you;
  $("deal-info").textContent = `Deal ${st.deal} of ${st.deals_planned}` + (st.round ? ` · ${st.round}` : "") + (you === null ? " · spectator" : ` · you: ${seatName(you)}`);
  const windows = st.windows || 1;
  $("windows").hidden = windows < 2;
  $("windows").textContent = windows > 1 ? `This seat is open in ${windows} windows or tabs: play in one of them and close the others.` : "";
  drawSeats(st, view, you);
  $("contract").textContent = st.sides;
  $("hints").replaceChildren(...(st.hints || []).map((h) => el("li", {}, h)));
  drawTalonParts(st);
  drawTrick(view);
  $("tally").textContent = view.phase === "over" ? "" : (st.tally || []).join(" ");
  drawShown(view, you);
  drawTurn(st, view, you);
  drawResult(st);
  $("deals").replaceChildren(scoreTable(st));
  $("log").replaceChildren(...st.log.map((line) => el("li", {}, line.trim())));
}

function drawSeats(st, view, you) {
  const lastCall = {};
  for (const [seat, call] of view.calls) lastCall[seat] = call;
  const partnerKnown = Object.prototype.hasOwnProperty.call(view, "partner");
  $("seats").replaceChildren(...st.seats.map((s) => {
    const box = el("div", { class: "seat" + (view.to_act === s.seat ? " to-act" : "") + (you === s.seat ? " you" : ""), "data-seat": s.seat });
    const marks = [];
    if (view.dealer === s.seat) marks.push("dealer");
    if (view.declarer === s.seat) marks.push(st.partner_game ? "★ declarer" : "★ lone player");
    if (partnerKnown && view.partner === s.seat && view.partner !== view.declarer) marks.push("☆ partner");
    if ((view.seats_out || []).includes(s.seat)) marks.push("sits out");
    const who = el("span", { class: "name" }, s.name);
    if (s.person) {
      const here = s.present !== false;
      who.prepend(el("span", { class: "presence" + (here ? " here" : ""), title: here ? "at the table" : "away" }, here ? "●" : "○"));
    }
    box.append(who);
    if (!s.person) box.append(el("span", { class: "bot", title: "a bot plays this seat" }, " (bot)"));
    if (s.stand_in) box.append(el("div", { class: "stand-in" }, "away: a bot plays for now"));
    box.append(el("div", {}, `${view.hand_sizes[s.seat]} cards · score ${s.score}`));
    if (marks.length) box.append(el("div", { class: "marks-line" }, marks.join(" · ")));
    if (lastCall[s.seat] !== undefined && view.phase !== "play") box.append(el("div", { class: "call" }, `said: ${tarock.welcome.calls[lastCall[s.seat]] || lastCall[s.seat]}`));
    if (view.phase === "over" && s.ready && !st.session_over) box.append(el("div", { class: "ready" }, "✓ ready for the next deal"));
    return box;
  }));
}

function drawTalonParts(st) {
  // A talon laid out in parts to choose from (Königrufen's halves): each part sorted, as a hand.
  const box = $("talon-parts");
  box.replaceChildren();
  if (!st.talon_parts || st.view.phase !== "exchange") return;
  const names = ["first", "second", "third", "fourth", "fifth", "sixth"];
  const word = st.talon_parts.length === 2 ? "half" : st.talon_parts.length === 3 ? "third" : "part";
  st.talon_parts.forEach((part, i) => box.append(cardsLine(`Talon, ${names[i]} ${word}:`, sortCards(part), `talon-part-${i}`)));
}

function sortCards(cards) {
  // As the server sorts a hand (trumps high to low, then suit by suit, each high to low).
  const order = tarock.welcome.order;
  const rank = (c) => order.indexOf(c);
  return [...cards].sort((a, b) => rank(a) - rank(b));
}

function drawTrick(view) {
  // The trick being played; between two tricks, the last one stays until the next card falls.
  // The last trick taken can be looked at again (the table's convention: the last one only).
  const done = view.tricks.filter((t) => t.winner !== null);
  const current = view.tricks.find((t) => t.winner === null);
  const last = done.length ? done[done.length - 1] : null;
  const showing = current && current.cards.length ? current : last;
  const box = $("trick");
  box.replaceChildren();
  if (showing) {
    for (const cell of trickCells(showing)) box.append(cell);
    if (showing === last) box.append(el("p", { class: "won" }, `Trick ${done.length} to ${seatName(last.winner)}`));
  }
  const peek = $("last-trick");
  const canPeek = last && showing !== last;
  peek.hidden = !(canPeek && tarock.peek);
  peek.replaceChildren();
  if (canPeek) {
    const button = el("button", { type: "button", id: "peek-button", class: "small", "aria-expanded": String(tarock.peek) }, tarock.peek ? "Hide the last trick" : "Last trick");
    button.onclick = () => { tarock.peek = !tarock.peek; draw(); };
    box.append(button);
    if (tarock.peek) {
      const row = el("div", { class: "cards" });
      for (const cell of trickCells(last)) row.append(cell);
      peek.append(el("p", {}, `Trick ${done.length}, taken by ${seatName(last.winner)}:`), row);
    }
  }
}

function trickCells(trick) {
  return trick.cards.map((card, i) => {
    const cell = el("div", { class: "played" + (trick.winner === trick.seats[i] ? " winner" : "") });
    cell.append(cardNode(card), el("div", {}, seatName(trick.seats[i])));
    return cell;
  });
}

function cardsLine(title, cards, id) {
  const part = el("div", id ? { id } : {});
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
  if (view.talon_shown && view.talon_shown.length && !(tarock.state.talon_parts && view.phase === "exchange")) {
    parts.push(cardsLine("Talon, turned up for all:", sortCards(view.talon_shown)));
  }
  if (view.talon && view.talon.length) parts.push(cardsLine("Talon:", view.talon));
  if (view.aside && view.aside.length) parts.push(cardsLine(view.phase === "over" ? "Put aside:" : "Your discards:", view.aside));
  if (view.phase === "auction" && view.talon_size) parts.push(el("p", {}, `Talon: ${view.talon_size} cards face down`));
  $("shown").replaceChildren(...parts);
}

// -- choosing several cards at once: tapped in the hand, whatever the number of combinations -------
function choosable(card, template) {
  // Whether tapping `card` now can still lead to a legal choice.
  if (template.forbidden.includes(card) || !template.from.includes(card)) return false;
  if (tarock.selected.includes(card)) return !template.including.includes(card);
  if (tarock.selected.length >= template.count) return false;
  if (!template.sets) return true;
  const wanted = [...tarock.selected, card];
  return template.sets.some((set) => wanted.every((c) => set.includes(c)));
}

function complete(template) {
  const chosen = tarock.selected;
  if (chosen.length !== template.count || !template.including.every((c) => chosen.includes(c))) return false;
  return !template.sets || template.sets.some((set) => chosen.every((c) => set.includes(c)));
}

function toggle(card, template) {
  const i = tarock.selected.indexOf(card);
  if (i >= 0) {
    if (!template.including.includes(card)) tarock.selected.splice(i, 1);
  } else if (choosable(card, template)) {
    tarock.selected.push(card);
  }
  draw();
}

function drawTurn(st, view, you) {
  const legal = st.legal;
  const kind = turn(st);
  const plays = new Set(legal.filter((l) => l.action && l.action.play).map((l) => l.action.play));
  const template = legal.find((l) => l.choice);
  const buttons = legal.filter((l) => l.action && !l.action.play);
  const prompt = $("prompt");
  prompt.className = "";
  const waiting = kind === "offer" && tarock.waiting === offerKey(st);
  if (template) for (const c of template.including) if (!tarock.selected.includes(c)) tarock.selected.push(c);
  if (view.phase === "over") prompt.textContent = st.session_over ? "The session is over." : "The deal is over.";
  else if (kind === "turn") {
    prompt.textContent = template ? `Your turn: ${template.label}.` : plays.size ? "Your turn: play a card." : "Your turn.";
    prompt.className = "your-turn";
  } else if (kind === "offer") {
    prompt.textContent = waiting
      ? `Waiting for ${seatName(view.to_act)}… (you may still interrupt)`
      : `${seatName(view.to_act)} is to speak. You may interrupt now, or wait:`;
    prompt.className = waiting ? "" : "offer";
  } else if (view.to_act !== null) prompt.textContent = `Waiting for ${seatName(view.to_act)}…`;
  else prompt.textContent = "";
  // The hand: in trick play a tap plays the card (an illegal one is sent too: the server says why not);
  // in a choice of several cards a tap picks or drops it.
  const hand = $("hand");
  hand.replaceChildren();
  const forbidden = new Set(template ? template.forbidden : []);
  for (const card of (view.hand || [])) {
    const node = cardNode(card, "button");
    node.type = "button";
    if (template && kind === "turn") {
      if (forbidden.has(card)) node.classList.add("forbidden");
      if (tarock.selected.includes(card)) node.classList.add("selected");
      if (template.including.includes(card)) node.classList.add("must");
      else if (!tarock.selected.includes(card) && !choosable(card, template)) node.classList.add("dim");
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
  if (template && kind === "turn") {
    const names = (cards) => cards.map((c) => {  // as the server labels cards: T21 (Mond), SJ (Bube ♠)
      const name = (tarock.welcome.cards[c] || { name: c.slice(1) }).name;
      return name === c.slice(1) ? c : `${c} (${name})`;
    }).join(", ");
    const must = template.including.length ? ` · must be among them: ${names(template.including)}` : "";
    const task = el("p", { class: "task" }, `${template.label}: ${tarock.selected.length} of ${template.count} chosen`
      + (template.forbidden.length ? ` · not allowed: ${names(template.forbidden)}` : "") + must + ". Tap the cards.");
    const done = el("button", { type: "button", id: "confirm" }, template.choice === "keep" ? "Keep these" : "Put these aside");
    done.disabled = !complete(template);
    done.onclick = () => act({ [template.choice]: tarock.selected.slice() });
    const clear = el("button", { type: "button", id: "clear", class: "plain" }, "Start again");
    clear.onclick = () => { tarock.selected = []; draw(); };
    actions.append(task, done, clear);
  }
  if (kind === "offer" && waiting) {
    const again = el("button", { type: "button", id: "interrupt", class: "plain" }, "Interrupt…");
    again.onclick = () => { tarock.waiting = null; draw(); };
    actions.append(again);
    return;
  }
  for (const l of buttons) {
    const b = el("button", { type: "button", "data-action": JSON.stringify(l.action) }, l.label);
    b.onclick = () => act(l.action);
    actions.append(b);
  }
  if (kind === "offer") {
    const wait = el("button", { type: "button", id: "wait", class: "plain" }, "Wait (don't interrupt)");
    wait.onclick = () => { tarock.waiting = offerKey(st); draw(); };
    actions.append(wait);
  }
}

function drawResult(st) {
  const box = $("result");
  box.hidden = !st.result;
  if (!st.result) return;
  $("result-lines").replaceChildren(...st.result.map((line) => el("li", {}, line)));
  const after = $("after");
  const sheet = el("div", { class: "scroll" });
  sheet.append(scoreTable(st));
  after.replaceChildren(sheet);
  if (!st.session_over && st.you !== null) {
    const me = st.seats[st.you];
    const next = el("button", { type: "button", id: "next-deal", class: "primary" }, me.ready ? "Ready ✓ (waiting for the others)" : "Ready for the next deal");
    next.disabled = !!me.ready;
    next.onclick = () => send({ type: "next" });
    const waitingFor = st.seats.filter((s) => s.person && s.present !== false && !s.stand_in && !s.ready).map((s) => s.name);
    after.append(next);
    if (waitingFor.length) after.append(el("p", { class: "waiting-for" }, `The next deal is dealt when everybody at the table is ready; waiting for ${waitingFor.join(", ")}.`));
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
    const show = el("button", { type: "button", class: "review small", "data-deal": d.number }, "show");
    show.onclick = () => send({ type: "deal", number: d.number });
    cell.append(show);
    if (st.you !== null) {
      const link = el("button", { type: "button", class: "record small" }, "download");
      link.onclick = () => download(d.number);
      cell.append(link);
    }
    row.append(cell);
    table.append(row);
  }
  const total = el("tr");
  total.append(el("th", {}, "Score"), ...st.seats.map((s) => el("th", {}, String(s.score))), el("th", {}, tarock.welcome.unit));
  table.append(total);
  // A session that keeps a score sheet, or a pot, is settled otherwise than by adding up the deals.
  if (st.seats.some((s) => s.sheet !== null && s.sheet !== undefined)) {
    const sheet = el("tr", { class: "sheet" });
    sheet.append(el("th", {}, "Sheet"), ...st.seats.map((s) => el("th", {}, String(s.sheet))), el("th"));
    table.append(sheet);
  }
  if (st.seats.some((s) => s.total !== s.score)) {
    const settled = el("tr", { class: "settled" });
    // What the pots hold: the deal's pot carried over, and each of the session's pots by name.
    const pots = Object.entries(st.pots || {}).map(([name, held]) => `${name} ${held}`);
    if (st.pot !== null && st.pot !== undefined) pots.unshift(`pot ${st.pot}`);
    settled.append(el("th", {}, "Settled"), ...st.seats.map((s) => el("th", {}, (s.total > 0 ? "+" : "") + s.total)), el("th", {}, pots.join(", ")));
    table.append(settled);
  }
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

function showSound() {
  $("sound-button").textContent = tarock.sound ? "♪ Sound on" : "♪ Sound off";
  $("sound-button").setAttribute("aria-pressed", String(tarock.sound));
}

$("review-close").onclick = () => { tarock.review = null; drawReview(); };
$("legend-button").onclick = () => {
  const legend = $("legend");
  legend.hidden = !legend.hidden;
  $("legend-button").setAttribute("aria-expanded", String(!legend.hidden));
};
$("sound-button").onclick = () => {
  tarock.sound = !tarock.sound;
  localStorage.setItem("tarock-sound", tarock.sound ? "on" : "off");
  showSound();
  if (tarock.sound) beep(); // what it sounds like (and browsers allow sound after a tap)
};
$("naming").onsubmit = (event) => {
  event.preventDefault();
  const name = $("name").value.trim();
  if (name) {
    localStorage.setItem("tarock-name", name);
    send({ type: "name", name });
  }
  $("naming").hidden = true;
};
showSound();
connect();
