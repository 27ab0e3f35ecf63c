// The table chat and the laugh (lald.web.table.chat): the lines of the table's log that are
// chat, shown in the chat panel as text (never read as markup: a link is not clickable),
// spectators' lines marked; the line field; the Laugh button while laughing is allowed;
// and, on the host's page (#...&host=TOKEN), muting a seat and closing the spectators' chat.
import { t } from "./i18n.js";
import { $, toast } from "./dom.js";
import { postHeaders } from "./session.js";

const LAUGH_MS = 20000;  // as long as the server allows (LAUGH_WINDOW)
let laughUntil = 0;
let laughTimer = null;
let hostToken = null;
let onRender = () => {};

export function initChat(send, host, rerender) {
  hostToken = host;
  onRender = rerender;
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const field = $("chat-text");
    const text = field.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) field.value = "";
  });
  $("laugh-btn").addEventListener("click", () => {
    send({ type: "laugh" });
    laughUntil = 0;
    onRender();
  });
}

export function clearChat() {
  $("chat-log").textContent = "";
}

// A chat entry of the log: its own line in the chat panel.
export function chatLine(entry) {
  const p = document.createElement("p");
  p.className = entry.spectator ? "chat spectator" : entry.kind === "laughs" ? "chat laughs" : "chat";
  const who = document.createElement("b");
  who.textContent = entry.name;
  if (entry.kind === "laughs") {
    p.textContent = entry.text;
  } else {
    p.append(who);
    if (entry.spectator) {
      const mark = document.createElement("small");
      mark.textContent = ` (${t("web_spectator_mark")})`;
      p.append(mark);
    }
    p.append(": ", entry.text);
  }
  const log = $("chat-log");
  const empty = log.querySelector(".chat-empty");
  if (empty) empty.remove();
  log.append(p);
  log.scrollTop = log.scrollHeight;
}

// Someone else lay down, live: this seat may laugh for a while.
export function mayLaugh(entry, frame) {
  if (!frame || frame.you === null || frame.you === undefined || entry.seat === frame.you) return;
  if (!frame.table.chat || !frame.table.chat.laugh) return;
  laughUntil = Date.now() + LAUGH_MS;
  clearTimeout(laughTimer);
  laughTimer = setTimeout(onRender, LAUGH_MS + 50);
}

export function renderChat(frame) {
  $("chat").hidden = Boolean(frame.table.lesson);  // a lesson is one person's
  const settings = frame.table.chat || { muted: [], spectators: true, laugh: true };
  const seat = frame.you;
  const human = seat !== null && seat !== undefined && frame.table.seats[seat].human;
  $("laugh-btn").hidden = !(human && settings.laugh && Date.now() < laughUntil);
  const muted = seat !== null && seat !== undefined && settings.muted.includes(seat);
  const closed = (seat === null || seat === undefined) && !settings.spectators;
  $("chat-note").hidden = !(muted || closed);
  $("chat-note").textContent = muted ? t("web_chat_muted") : closed ? t("web_chat_closed_note") : "";
  $("chat-text").disabled = muted || closed;
  $("chat-form").querySelector("button").disabled = muted || closed;
  if (!$("chat-log").childElementCount) {
    const p = document.createElement("p");
    p.className = "chat-empty";
    p.textContent = t("web_chat_empty");
    $("chat-log").append(p);
  }
  renderHost(frame, settings);
}

// The host's moderation, on the host's own page, folded away until asked for: a mute
// for each other person's seat, and the spectators' chat closed or opened.
function renderHost(frame, settings) {
  $("chat-host").hidden = !hostToken;
  if (!hostToken) return;
  const box = $("chat-host-buttons");
  const want = JSON.stringify([settings.muted, settings.spectators, frame.table.names, frame.you]);
  if (box.dataset.shown === want) return;  // (kept as it is: a click is never lost to a frame)
  box.dataset.shown = want;
  box.textContent = "";
  frame.table.seats.forEach((s, i) => {
    if (!s.human || i === frame.you) return;
    const muted = settings.muted.includes(i);
    const name = frame.table.names[i];
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = muted ? t("web_host_unmute", { name }) : t("web_host_mute", { name });
    button.setAttribute("aria-pressed", String(muted));
    button.addEventListener("click", () => host("/api/host/mute", { seat: i, muted: !muted }));
    box.append(button);
  });
  const spect = document.createElement("button");
  spect.type = "button";
  spect.textContent = settings.spectators ? t("web_host_spectators_close") : t("web_host_spectators_open");
  spect.addEventListener("click", () => host("/api/host/spectators", { chat: !settings.spectators }));
  box.append(spect);
}

async function host(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST", headers: postHeaders(),
      body: JSON.stringify({ token: hostToken, ...body }),
    });
    if (!response.ok) toast((await response.json()).error);
  } catch {
    toast(t("web_server_unreachable"));
  }
}
