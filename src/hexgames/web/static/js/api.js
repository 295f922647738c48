// Talking to the server: JSON over HTTP and one WebSocket per open game (docs/web-protocol.md).

/** A JSON request; its answer, or an Error with the server's message. */
export async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new Error(`The server cannot be reached (${err.message}).`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data?.error
      ? data.error
      : `${method} ${path} failed: ${response.status} ${text.slice(0, 200)}`;
    throw new Error(message);
  }
  return data;
}

const enc = encodeURIComponent;

export const api = {
  meta: () => request("GET", "/api/meta"),
  // the server mode (docs/web-protocol.md, "Server mode"); the local mode answers me() only
  me: () => request("GET", "/api/me"),
  login: (name, password) => request("POST", "/api/auth/login", { name, password }),
  signup: (name, password, invite) =>
    request("POST", "/api/auth/signup", { name, password, invite }),
  logout: () => request("POST", "/api/auth/logout"),
  password: (old, fresh) => request("POST", "/api/auth/password", { old, new: fresh }),
  challenges: () => request("GET", "/api/challenges"),
  challenge: (body) => request("POST", "/api/challenges", body),
  accept: (id) => request("POST", `/api/challenges/${enc(id)}/accept`),
  cancel: (id) => request("DELETE", `/api/challenges/${enc(id)}`),
  invite: (token) => request("GET", `/api/invites/${enc(token)}`),
  acceptInvite: (token) => request("POST", `/api/invites/${enc(token)}/accept`),
  playAi: (body) => request("POST", "/api/games", body),
  turn: () => request("GET", "/api/turn"),
  seeks: () => request("GET", "/api/seeks"),
  seek: (body) => request("POST", "/api/seeks", body),
  cancelSeek: () => request("DELETE", "/api/seeks"),
  ratings: (game) => request("GET", `/api/ratings?game=${enc(game)}`),
  user: (name) => request("GET", `/api/users/${enc(name)}`),
  // the opening explorer: query is "game=...&rules=...&position=..." (URLSearchParams)
  explorer: (query) => request("GET", `/api/explorer?${query}`),
  // turn notifications and vacation (the account page)
  notifications: () => request("GET", "/api/account/notifications"),
  setNotifications: (body) => request("POST", "/api/account/notifications", body),
  startVacation: (days) => request("POST", "/api/account/vacation", { days }),
  endVacation: () => request("DELETE", "/api/account/vacation"),
  myGames: (limit) => request("GET", `/api/games?mine=1&limit=${limit}`),
  // one page of the stored games, newest first: {games, total, offset, limit}
  games: (limit, offset) => request("GET", `/api/games?limit=${limit}&offset=${offset}`),
  create: (game, rules, players, position) =>
    request(
      "POST",
      "/api/games",
      position ? { game, rules, players, position } : { game, rules, players },
    ),
  remove: (id) => request("DELETE", `/api/games/${encodeURIComponent(id)}`),
  importRecord: (text) => request("POST", "/api/import", { text }),
  recordUrl: (id) => `/api/games/${encodeURIComponent(id)}/record`,
  svgUrl: (id, ply) =>
    `/api/games/${encodeURIComponent(id)}/svg` +
    (ply === null || ply === undefined ? "" : `?ply=${ply}`),
  // a position of a side line: its moves from the start
  svgLineUrl: (id, line) =>
    `/api/games/${encodeURIComponent(id)}/svg?line=${line.map(encodeURIComponent).join("+")}`,
};

/**
 * The WebSocket of one game. Calls onMessage(msg) for every message from the server and
 * onStatus("open" | "closed" | "gone") when the connection changes; reconnects by itself
 * after a drop (a restarted server), until close() is called.
 */
export class GameSocket {
  constructor(id, onMessage, onStatus) {
    this.id = id;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.closed = false;
    this.retry = null;
    this.ws = null;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(
      `${scheme}://${location.host}/ws/games/${encodeURIComponent(this.id)}`,
    );
    this.ws = ws;
    ws.onopen = () => this.onStatus("open");
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (event) => {
      if (this.closed || this.ws !== ws) return;
      // 4404 no such game, 4403 not allowed, 4429 too many pages open: trying again
      // would not help; 4401 the login has ended
      if (
        event.code === 4404 ||
        event.code === 4401 ||
        event.code === 4403 ||
        event.code === 4429
      ) {
        this.onStatus(event.code === 4401 ? "login" : "gone");
        return;
      }
      this.onStatus("closed");
      this.retry = setTimeout(() => this.connect(), 1000);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    if (this.ws) this.ws.close();
  }
}
