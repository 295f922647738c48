// The page's router. The local mode: "#/" is the start view, "#/game/<id>" a game
// ("#/game/<id>?ply=N": read-only at that ply, a shared link), "#/rules/<game>" the rules.
// The server mode adds "#/login", "#/signup", "#/password", "#/notifications", "#/invite/<token>",
// "#/ratings[/<game>]", "#/user/<name>", "#/tournaments", "#/tournament/<id>"; "#/" is the lobby.
// A reload restores any of them.
// A .hgn file dropped anywhere on the page is imported.

import { AccountView, hashQuery, me, PasswordView, refreshMe, serverMode } from "./account.js";
import { clearAlert, showError, showNotice } from "./alerts.js";
import { api } from "./api.js";
import { GameView } from "./game.js";
import { InviteView, LobbyView } from "./lobby.js";
import { NotificationsView } from "./mail-settings.js";
import { setTitle, startPolling } from "./notify.js";
import { PlayerView, RatingsView } from "./players.js";
import { RulesView } from "./rules.js";
import { StartView } from "./start.js";
import { TournamentsView, TournamentView } from "./tournaments.js";

const root = document.getElementById("app");
let current = null;

/** A link's path segment decoded; a malformed escape ("%ff") stays as it is, so the view
 * says there is no such game, user or invitation instead of the page going blank. */
function segment(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** An invitation's route, its token the group. */
const INVITE = /^#\/invite\/([^/?#]+)/;

/** The server mode's log-in or sign-up form that a hash asks for (AccountView's options),
 * or null for any other view. */
function accountOptions(hash, path, params) {
  if (INVITE.test(path)) return null;
  if (path === "#/signup") {
    const invite = params.get("invite");
    return { signup: true, invite, next: invite ? `#/invite/${invite}` : params.get("next") };
  }
  // a game is watched without an account when the operator allows it (--watch anonymous)
  const guest = !me.user && me.watch === "anonymous" && /^#\/game\//.test(path);
  if ((!me.user && !guest) || path === "#/login")
    return { next: params.get("next") || (path === "#/login" ? "#/" : hash || "#/") };
  return null;
}

function route() {
  const hash = location.hash;
  const params = hashQuery(hash);
  const path = hash.split("?")[0];
  const account = serverMode() ? accountOptions(hash, path, params) : null;
  // the same form again (the top bar's "Log in" on a game link's form, say) keeps what
  // was typed: rebuilding it while someone types lost the name
  if (account && current instanceof AccountView && current.shows(account)) return;
  if (current) current.destroy();
  current = null;
  clearAlert();
  let match;
  if (serverMode()) {
    document.body.dataset.mode = "server";
    if ((match = path.match(INVITE))) {
      current = new InviteView(root, segment(match[1]));
      document.body.dataset.view = "invite";
      return;
    }
    if (account) {
      current = new AccountView(root, account);
      document.body.dataset.view = account.signup ? "signup" : "login";
      setTitle(account.signup ? "Sign up · hexgames" : "Log in · hexgames");
      return;
    }
  }
  if ((match = path.match(/^#\/game\/([^/?#]+)/))) {
    const ply = params.get("ply");
    current = new GameView(root, segment(match[1]), {
      ply: ply !== null && /^[0-9]+$/.test(ply) ? Number(ply) : null,
    });
    document.body.dataset.view = "game";
  } else if ((match = path.match(/^#\/rules(?:\/([^/?#]*))?$/))) {
    current = new RulesView(root, match[1] === undefined ? undefined : segment(match[1]));
    document.body.dataset.view = "rules";
  } else if (serverMode() && path === "#/password") {
    current = new PasswordView(root);
    document.body.dataset.view = "password";
  } else if (serverMode() && path === "#/notifications") {
    current = new NotificationsView(root);
    document.body.dataset.view = "notifications";
  } else if (serverMode() && (match = path.match(/^#\/ratings(?:\/([a-z]+))?/))) {
    current = new RatingsView(root, match[1]);
    document.body.dataset.view = "ratings";
  } else if (serverMode() && (match = path.match(/^#\/user\/([^/?#]+)/))) {
    current = new PlayerView(root, segment(match[1]));
    document.body.dataset.view = "player";
  } else if (serverMode() && path === "#/tournaments") {
    current = new TournamentsView(root);
    document.body.dataset.view = "tournaments";
  } else if (serverMode() && (match = path.match(/^#\/tournament\/([^/?#]+)/))) {
    current = new TournamentView(root, segment(match[1]));
    document.body.dataset.view = "tournament";
  } else if (serverMode()) {
    current = new LobbyView(root);
    document.body.dataset.view = "lobby";
  } else {
    current = new StartView(root);
    document.body.dataset.view = "start";
    setTitle("hexgames");
  }
}

/** Import the .hgn files dropped on the page; one game opens, several are listed. */
async function dropped(files) {
  const texts = [];
  for (const file of files) {
    if (!/\.(hgn|txt|pgn)$/i.test(file.name) && file.type && !file.type.startsWith("text/")) {
      showError(`${file.name} is not a .hgn record.`);
      return;
    }
    texts.push(await file.text());
  }
  if (!texts.length) return;
  try {
    const answer = await api.importRecord(texts.join("\n\n"));
    const ids = answer.ids || [];
    if (ids.length === 1) location.hash = `#/game/${encodeURIComponent(ids[0])}`;
    else {
      showNotice(`Imported ${ids.length} games.`);
      if (location.hash === "#/" || location.hash === "") route();
      else location.hash = "#/";
    }
  } catch (err) {
    showError(err.message);
  }
}

function watchDrops() {
  const hasFiles = (e) => e.dataTransfer && [...(e.dataTransfer.types || [])].includes("Files");
  window.addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    document.body.dataset.dropping = "true";
  });
  window.addEventListener("dragleave", (e) => {
    if (e.target === document.documentElement || e.target === document.body)
      delete document.body.dataset.dropping;
  });
  window.addEventListener("drop", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    delete document.body.dataset.dropping;
    dropped([...e.dataTransfer.files]);
  });
}

async function start() {
  try {
    await refreshMe();
  } catch {
    // an older server without /api/me: the local mode
  }
  document.body.dataset.ready = "true";
  watchDrops();
  window.addEventListener("hashchange", route);
  route();
  if (serverMode()) startPolling(4);
}

start();
