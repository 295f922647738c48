// The chat of a game between its two players (server mode): shown only when the state
// says this page may use it (`chat`: the players, never a watcher); the server keeps it
// and sends it to the players' pages only (docs/web-protocol.md, "chat").

import { button, h, replaceChildren } from "./dom.js";

/** The longest message (hexgames.limits.MAX_CHAT_TEXT). */
const MAX_CHAT_TEXT = 280;

export class ChatPanel {
  /** game: the GameView whose chat this shows. */
  constructor(game) {
    this.game = game;
    this.messages = [];
    this.asked = false; // the history was asked for on this connection
    this.list = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
    this.input = h("input", {
      id: "chat-input",
      type: "text",
      maxlength: MAX_CHAT_TEXT,
      placeholder: "Say something to your opponent",
      "aria-label": "Chat message",
      autocomplete: "off",
    });
    const send = button("chat-send", "Send", "Send the message", () => this.send(), {
      class: "small",
    });
    this.form = h(
      "form",
      {
        class: "row chat-form",
        onsubmit: (e) => {
          e.preventDefault();
          this.send();
        },
      },
      [this.input, send],
    );
    this.element = h("section", { class: "panel-section chat", id: "chat", hidden: true }, [
      h("h3", {}, "Chat"),
      this.list,
      this.form,
    ]);
  }

  /** The connection came back or was lost: the history is asked for again. */
  connection(open) {
    if (!open) this.asked = false;
  }

  /** A state came: show the chat if this page may use it, asking for its history once. */
  gotState(st) {
    const on = !!st.chat;
    this.element.hidden = !on;
    if (on && !this.asked) {
      this.asked = true;
      this.game.socket.send({ type: "chat_history" });
    }
  }

  gotHistory(msg) {
    this.messages = msg.messages || [];
    this.render();
  }

  gotMessage(msg) {
    const message = msg.message;
    if (!this.messages.some((m) => m.id === message.id)) this.messages.push(message);
    this.render();
  }

  send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.game.send({ type: "chat", text });
    this.input.value = "";
  }

  render() {
    replaceChildren(
      this.list,
      this.messages.map((m) =>
        h("li", { class: `chat-line side${m.side}`, "data-side": m.side }, [
          h("b", { class: "chat-name" }, m.name),
          " ",
          h("span", { class: "chat-text" }, m.text),
        ]),
      ),
    );
    this.list.scrollTop = this.list.scrollHeight;
  }
}
