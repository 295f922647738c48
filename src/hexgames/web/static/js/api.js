// Talking to the server: JSON over HTTP and one WebSocket per open game (docs/web-protocol.md).

async function request(method, path, body) {
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
    const message = data && data.error ? data.error : `${method} ${path} failed: ${response.status} ${text.slice(0, 200)}`;
    throw new Error(message);
  }
  return data;
}

export const api = {
  meta: () => request("GET", "/api/meta"),
  // one page of the stored games, newest first: {games, total, offset, limit}
  games: (limit, offset) => request("GET", `/api/games?limit=${limit}&offset=${offset}`),
  create: (game, rules, players) => request("POST", "/api/games", { game, rules, players }),
  remove: (id) => request("DELETE", `/api/games/${encodeURIComponent(id)}`),
  importRecord: (text) => request("POST", "/api/import", { text }),
  recordUrl: (id) => `/api/games/${encodeURIComponent(id)}/record`,
  svgUrl: (id, ply) => `/api/games/${encodeURIComponent(id)}/svg` + (ply === null || ply === undefined ? "" : `?ply=${ply}`),
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
    const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(this.id)}`);
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
      if (event.code === 4404) {
        this.onStatus("gone");
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
