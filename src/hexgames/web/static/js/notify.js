// Being told it is your move: the page title, the favicon, a browser notification when
// allowed, and the count of games waiting for you (polled from GET /api/turn).

import { me, serverMode } from "./account.js";
import { api } from "./api.js";

const PLAIN_ICON = "/static/favicon.svg";
// the site's hexagon with a gold dot: "a game waits for your move"
const TURN_ICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-12 -11 24 22"><polygon points="10,0 5,8.66 -5,8.66 -10,0 -5,-8.66 5,-8.66" fill="#2f6f73"/><circle cx="5" cy="-5" r="5.5" fill="#d69e16" stroke="#fff" stroke-width="1.2"/></svg>',
  );

let baseTitle = "hexgames";
let yourMove = false;
let waiting = []; // the games of GET /api/turn
const told = new Set(); // "<game>:<ply>" already notified
let poller = null;
const listeners = new Set();

function apply() {
  const mark = yourMove || waiting.length ? "● " : "";
  document.title = `${mark}${yourMove ? "Your move · " : ""}${baseTitle}`;
  const link = document.querySelector('link[rel="icon"]');
  if (link) {
    link.href = yourMove || waiting.length ? TURN_ICON : PLAIN_ICON;
    link.dataset.turn = String(yourMove || waiting.length > 0);
  }
  const count = document.getElementById("turn-count");
  if (count) {
    count.textContent = String(waiting.length);
    count.closest("a").classList.toggle("waiting", waiting.length > 0);
  }
}

/** The title of the view ("Andantino · hexgames"); yours: whether it is your move in it. */
export function setTitle(title, yours = false) {
  baseTitle = title;
  yourMove = yours;
  apply();
}

/** Tell the person a game waits for them, once per position, when the page is hidden. */
export function notifyTurn(gameId, ply, text) {
  const key = `${gameId}:${ply}`;
  if (told.has(key)) return;
  told.add(key);
  if (
    !document.hidden ||
    typeof Notification === "undefined" ||
    Notification.permission !== "granted"
  )
    return;
  try {
    const note = new Notification("hexgames: your move", {
      body: text,
      tag: `hexgames-${gameId}`,
      icon: PLAIN_ICON,
    });
    note.onclick = () => {
      window.focus();
      location.hash = `#/game/${encodeURIComponent(gameId)}`;
    };
  } catch {
    // some browsers only notify from a service worker: the title and icon still tell
  }
}

export function notificationsWanted() {
  return typeof Notification !== "undefined" && Notification.permission === "default";
}

export async function askNotifications() {
  if (typeof Notification === "undefined") return "unsupported";
  return Notification.requestPermission();
}

/** Games waiting for the person, as last polled. */
export const waitingGames = () => waiting;

export function onWaiting(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function poll() {
  if (!serverMode() || !me.user) {
    waiting = [];
    apply();
    return;
  }
  try {
    waiting = (await api.turn()).games || [];
  } catch {
    return; // offline for a moment: keep what was shown
  }
  for (const g of waiting)
    notifyTurn(
      g.id,
      g.moves,
      `${g.game === "abande" ? "Abande" : "Andantino"} against ${(g.accounts || []).filter((n) => n && n !== me.user.name).join(", ") || "the computer"}`,
    );
  apply();
  for (const listener of listeners) listener(waiting);
}

/** Poll GET /api/turn every few seconds (server mode). */
export function startPolling(seconds = 5) {
  if (poller) clearInterval(poller);
  poll();
  poller = setInterval(poll, seconds * 1000);
}

export const pollNow = poll;
