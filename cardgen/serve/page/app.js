// cardgen serve: the page. It asks /api/view for what to show with the chosen
// switches, and asks again on each server-sent event from /events. Pictures are
// named by a hash of what they show, so a face that did not change keeps its <img>
// untouched; elements are updated in place, so the scroll position stays.
"use strict";

const $ = (id) => document.getElementById(id);
const SWITCHES = ["lang", "paper", "duplex", "ink_saver", "proof", "soft_proof"];
let asked = 0;          // the latest /api/view request; older answers are dropped
let current = null;     // the latest view shown
let zoomed = null;      // the slot of the face shown large, if any
window.cardgenLoadedAt = Date.now();  // tests check the page was never reloaded

function chosen() {
  const q = new URLSearchParams(location.search);
  const out = {};
  for (const name of SWITCHES) if (q.has(name)) out[name] = q.get(name);
  return out;
}

function fromForm() {
  return {
    lang: $("lang").value, paper: $("paper").value, duplex: $("duplex").value,
    ink_saver: $("ink_saver").checked ? "1" : "0", proof: $("proof").checked ? "1" : "0",
    soft_proof: $("soft_proof").checked ? "1" : "0",
  };
}

async function load(options) {
  const n = ++asked;
  const response = await fetch("/api/view?" + new URLSearchParams(options));
  const view = await response.json();
  if (n !== asked) return;
  if (!response.ok) { $("status").textContent = view.error; return; }
  show(view);
}

function fillSelect(select, values, value) {
  if (select.options.length !== values.length || [...select.options].some((o, i) => o.value !== values[i])) {
    select.replaceChildren(...values.map((v) => new Option(v, v)));
  }
  select.value = value;
}

function show(view) {
  current = view;
  const o = view.options;
  document.title = `${view.game} — cardgen serve`;
  $("title").textContent = view.game;
  fillSelect($("lang"), view.langs, o.lang);
  fillSelect($("paper"), view.papers, o.paper);
  $("duplex").value = o.duplex;
  $("ink_saver").checked = o.ink_saver;
  $("proof").checked = o.proof;
  $("soft_proof").checked = o.soft_proof;
  showErrors(view.errors);
  showFaces(view.faces);
  showSheets(view.sheets);
  $("status").textContent = `${view.faces.length} distinct faces · version ${view.version}`;
  document.body.dataset.version = view.version;
}

function showErrors(errors) {
  const banner = $("banner");
  banner.hidden = errors.length === 0;
  $("banner-title").textContent = `${errors.length} problem${errors.length === 1 ? "" : "s"}`;
  $("errors").replaceChildren(...errors.map((e) => {
    const li = document.createElement("li");
    const where = e.file ? e.file + (e.line ? ":" + e.line : "") : "";
    if (where && e.text.startsWith(where)) {
      const b = document.createElement("span");
      b.className = "where";
      b.textContent = where;
      li.append(b, e.text.slice(where.length));
    } else {
      li.textContent = e.text;
    }
    return li;
  }));
}

// One <figure> per item, keyed by its slot: created once, then updated in place.
function figure(container, slot, make) {
  let fig = container.querySelector(`figure[data-slot="${CSS.escape(slot)}"]`);
  if (!fig) {
    fig = document.createElement("figure");
    fig.dataset.slot = slot;
    const button = document.createElement("button");
    button.type = "button";
    const img = document.createElement("img");
    button.append(img);
    fig.append(button, document.createElement("figcaption"));
    make(fig);
  }
  return fig;
}

function setPicture(img, url, alt) {
  if (img.getAttribute("src") !== url) img.setAttribute("src", url);
  if (img.alt !== alt) img.alt = alt;
}

function group(container, key, title, cls) {
  let box = container.querySelector(`section[data-key="${CSS.escape(key)}"]`);
  if (!box) {
    box = document.createElement("section");
    box.dataset.key = key;
    const h = document.createElement("h3");
    const list = document.createElement("div");
    list.className = cls;
    box.append(h, list);
  }
  box.querySelector("h3").textContent = title;
  return box;
}

function showFaces(faces) {
  const root = $("face-list");
  const decks = [];
  for (const f of faces) {
    if (!decks.length || decks[decks.length - 1].id !== f.component) decks.push({ id: f.component, faces: [] });
    decks[decks.length - 1].faces.push(f);
  }
  root.replaceChildren(...decks.map((d) => {
    const box = group(root, d.id, d.id, "deck");
    const list = box.querySelector(".deck");
    list.replaceChildren(...d.faces.map((f) => {
      const fig = figure(list, f.slot, (el) => el.classList.add("face"));
      const img = fig.querySelector("img");
      img.style.width = `calc(var(--mm) * ${f.size[0]})`;
      setPicture(img, f.url, f.text || `${name(f)} ${f.side}`);
      const more = f.cards.length > 1 ? ` +${f.cards.length - 1} more` : "";
      const caption = fig.querySelector("figcaption");
      caption.textContent = `${name(f)}${more} · ×${f.copies} · ${f.side}`;
      if (current && current.options.soft_proof) gamutNote(img, f.id, caption);
      fig.querySelector("button").onclick = () => zoom(f);
      if ($("zoom").open && zoomed === f.slot) zoom(f);  // the enlarged face follows the saves too
      return fig;
    }));
    return box;
  }));
}

function showSheets(files) {
  const root = $("sheet-list");
  root.replaceChildren(...files.map((file, n) => {
    const box = group(root, String(n), file.title, "sheet-file");
    const list = box.querySelector(".sheet-file");
    list.replaceChildren(...file.pages.map((p, i) => {
      const fig = figure(list, p.slot, (el) => el.classList.add("page"));
      const img = fig.querySelector("img");
      img.loading = "lazy";
      setPicture(img, p.url, p.title);
      fig.querySelector("figcaption").textContent = `p. ${i + 1} · ${p.title}`;
      fig.querySelector("button").onclick = () => zoomPage(p);
      return fig;
    }));
    return box;
  }));
}

// A face's card, or the component itself for a board.
function name(f) { return f.cards.length ? f.cards[0] : f.component; }

function zoom(f) {
  zoomed = f.slot;
  $("zoom-img").src = f.url;
  $("zoom-img").alt = f.text;
  $("zoom-title").textContent = `${f.component} · ${name(f)} · ${f.side}`;
  const template = $("zoom-template");
  template.replaceChildren();
  if (f.template_url) {
    const a = document.createElement("a");
    a.href = f.template_url;
    a.target = "_blank";
    a.textContent = f.template;
    template.append(a);
  } else {
    template.textContent = f.template;
  }
  $("zoom-defined").textContent = f.defined || "—";
  $("zoom-cards").textContent = f.cards.length
    ? `${f.cards.join(", ")} (${f.copies} cop${f.copies === 1 ? "y" : "ies"})` : "— (a board)";
  $("zoom-data").textContent = f.data ? JSON.stringify(f.data, null, 2) : "";
  if (!$("zoom").open) $("zoom").showModal();
}

function zoomPage(p) {
  zoomed = null;
  $("zoom-img").src = p.url;
  $("zoom-img").alt = p.title;
  $("zoom-title").textContent = p.title;
  $("zoom-template").textContent = "—";
  $("zoom-defined").textContent = "—";
  $("zoom-cards").textContent = "—";
  $("zoom-data").textContent = "";
  if (!$("zoom").open) $("zoom").showModal();
}

function start() {
  $("switches").addEventListener("change", () => {
    const options = fromForm();
    history.replaceState(null, "", "?" + new URLSearchParams(options));
    load(options);
  });
  $("zoom").addEventListener("click", (e) => { if (e.target === $("zoom")) $("zoom").close(); });
  listen();
  load(chosen());
}

function listen() {
  const events = new EventSource("/events");
  events.addEventListener("change", () => load(current ? fromForm() : chosen()));
  events.onerror = () => {
    $("status").textContent = "reconnecting to cardgen serve…";
    // refused (too many pages open: 503) the browser gives up; this page tries again
    if (events.readyState === EventSource.CLOSED) setTimeout(listen, 5000);
  };
  events.onopen = () => { if (current) load(fromForm()); };  // a restarted server may show more
}

start();

// With the soft proof on: once a face's picture is drawn, say how much of it the press
// cannot print (the hatched part).
function gamutNote(img, id, caption) {
  const base = caption.textContent;
  const note = async () => {
    const response = await fetch("/api/gamut/" + encodeURIComponent(id));
    if (!response.ok) return;
    const g = await response.json();
    const pct = g.pixels ? (100 * g.out_of_gamut) / g.pixels : 0;
    caption.textContent = `${base} · ${pct < 0.05 ? "all printable" : pct.toFixed(1) + " % out of gamut"}`;
    caption.dataset.outOfGamut = String(g.out_of_gamut);
  };
  if (img.complete && img.naturalWidth) note(); else img.addEventListener("load", note, { once: true });
}
