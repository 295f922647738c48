// The server mode's account: who is logged in (me), and the views to log in, sign up,
// change the password. The server decides everything; this only asks.

import { clearAlert, showError, showNotice } from "./alerts.js";
import { api } from "./api.js";
import { actionForm, h, replaceChildren } from "./dom.js";

/** What GET /api/me said: {mode, user, csrf, signup}; refreshed by refreshMe(). */
export const me = { mode: "local", user: null, signup: null };

export async function refreshMe() {
  const data = await api.me();
  Object.assign(me, data);
  renderNav();
  return me;
}

export const serverMode = () => me.mode === "server";

/** The query of a hash route ("#/login?next=..."), empty without one. */
export function hashQuery(hash) {
  const at = hash.indexOf("?");
  return new URLSearchParams(at < 0 ? "" : hash.slice(at + 1));
}

/** Where to go after logging in or signing up: `next` if it is a view of this page (a
 * "#/..." route, not the log-in or sign-up view itself), else the lobby "#/". Anything
 * else (another site, "//host", "javascript:", a path with a scheme) is refused: no open
 * redirect. */
export function safeNext(next) {
  if (typeof next !== "string" || next.length > 500) return "#/";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused
  if (!/^#\/(?![/\\])[^\u0000-\u001f\u007f]*$/.test(next)) return "#/";
  if (/^#\/(login|signup)(?:[/?]|$)/.test(next)) return "#/";
  return next;
}

/** The route of the log-in (or sign-up) view that comes back here afterwards; from a
 * log-in or sign-up view itself, where that view comes back to (the top bar's "Log in"
 * on a game link's form keeps the game, and the same form with what was typed). */
export function accountRoute(view, next = location.hash) {
  const own = /^#\/(login|signup)(?:\?|$)/.exec(next);
  if (own?.[1] === view) return next; // the same form, as it is (an invitation's too)
  if (own) {
    const params = hashQuery(next);
    const invite = own[1] === "signup" ? params.get("invite") : null;
    next = invite ? `#/invite/${invite}` : params.get("next");
  }
  const back = safeNext(next);
  return back === "#/" ? `#/${view}` : `#/${view}?next=${encodeURIComponent(back)}`;
}

/** The top bar's links: the local mode has "Games"; the server mode the lobby, ratings, the account. */
export function renderNav() {
  const nav = document.querySelector(".topnav");
  if (!nav) return;
  if (!serverMode()) {
    replaceChildren(nav, [h("a", { href: "#/", id: "home-link" }, "Games")]);
    return;
  }
  if (!me.user) {
    // they come back to the view they were on (a game link, say)
    const go = (view) => (e) => {
      e.preventDefault();
      location.hash = accountRoute(view);
    };
    replaceChildren(nav, [
      h("a", { href: "#/login", id: "login-link", onclick: go("login") }, "Log in"),
      me.signup === "open"
        ? h("a", { href: "#/signup", id: "signup-link", onclick: go("signup") }, "Sign up")
        : null,
    ]);
    return;
  }
  // on a phone the last links fold into a menu, so the bar keeps to one row
  const toggle = h(
    "button",
    {
      type: "button",
      id: "nav-toggle",
      class: "small subtle nav-toggle",
      "aria-expanded": "false",
      "aria-controls": "nav-menu",
      onclick: () => {
        const open = nav.classList.toggle("open");
        toggle.setAttribute("aria-expanded", String(open));
      },
    },
    "Menu",
  );
  const closeMenu = () => {
    nav.classList.remove("open");
    toggle.setAttribute("aria-expanded", "false");
  };
  replaceChildren(nav, [
    h("a", { href: "#/", id: "home-link" }, "Lobby"),
    h(
      "a",
      { href: "#/", id: "turn-link", class: "turn-link", title: "Games waiting for your move" },
      ["Your turn ", h("span", { class: "badge", id: "turn-count" }, "0")],
    ),
    toggle,
    h("div", { class: "nav-menu", id: "nav-menu", onclick: closeMenu }, navMenu()),
  ]);
}

/** The links of the top bar's menu (inline on a wide screen). */
function navMenu() {
  return [
    h("a", { href: "#/ratings", id: "ratings-link" }, "Ratings"),
    h("a", { href: "#/tournaments", id: "tournaments-link" }, "Tournaments"),
    h(
      "a",
      { href: `#/user/${encodeURIComponent(me.user.name)}`, id: "me-link", class: "me" },
      me.user.name,
    ),
    h("a", { href: "#/password", id: "password-link" }, "Password"),
    h("a", { href: "#/notifications", id: "notifications-link" }, "Mail & vacation"),
    h(
      "button",
      { type: "button", id: "logout", class: "small subtle", onclick: () => logout() },
      "Log out",
    ),
  ];
}

async function logout() {
  try {
    await api.logout();
  } catch (err) {
    showError(err.message);
  }
  await refreshMe();
  location.hash = "#/login";
}

function field(id, label, type, extra = {}) {
  return h("label", { class: "field" }, [
    h("span", {}, label),
    h("input", { id, name: id, type, required: true, ...extra }),
  ]);
}

/** Log in (or, with signup true, sign up; an invitation token lets a friend without an account in). */
export class AccountView {
  constructor(root, { signup = false, invite = null, next = "#/" } = {}) {
    this.root = root;
    this.signup = signup;
    this.invite = invite;
    this.next = safeNext(next);
    this.build();
  }

  destroy() {}

  /** Whether this form is the one `options` (the constructor's) would build. */
  shows({ signup = false, invite = null, next = "#/" } = {}) {
    return this.signup === signup && this.invite === invite && this.next === safeNext(next);
  }

  build() {
    const title = this.signup ? "Sign up" : "Log in";
    const form = actionForm(
      { class: "card account-form", id: this.signup ? "signup-form" : "login-form" },
      () => this.submit(),
      [
        h("h2", {}, title),
        field("account-name", "Name", "text", {
          autocomplete: "username",
          maxlength: 32,
          autocapitalize: "none",
        }),
        field("account-password", "Password", "password", {
          autocomplete: this.signup ? "new-password" : "current-password",
          minlength: this.signup ? 8 : null,
        }),
        h("button", { type: "submit", class: "primary", id: "account-submit" }, title),
        this.signup
          ? h("p", { class: "hint-line" }, [
              "Have an account? ",
              h("a", { href: accountRoute("login", this.next), id: "to-login" }, "Log in"),
            ])
          : me.signup === "open"
            ? h("p", { class: "hint-line" }, [
                "New here? ",
                h("a", { href: accountRoute("signup", this.next), id: "to-signup" }, "Sign up"),
              ])
            : null,
      ],
    );
    replaceChildren(this.root, h("div", { class: "account-view" }, [form]));
    form.querySelector("input").focus();
  }

  async submit() {
    clearAlert();
    const name = document.getElementById("account-name").value.trim();
    const password = document.getElementById("account-password").value;
    try {
      if (this.signup) await api.signup(name, password, this.invite || undefined);
      else await api.login(name, password);
    } catch (err) {
      showError(err.message);
      return;
    }
    await refreshMe();
    if (location.hash === this.next) window.dispatchEvent(new HashChangeEvent("hashchange"));
    else location.hash = this.next;
  }
}

export class PasswordView {
  constructor(root) {
    this.root = root;
    const form = actionForm(
      { class: "card account-form", id: "password-form" },
      () => this.submit(),
      [
        h("h2", {}, "Change your password"),
        field("old-password", "Password now", "password", { autocomplete: "current-password" }),
        field("new-password", "New password (at least 8 characters)", "password", {
          autocomplete: "new-password",
          minlength: 8,
        }),
        h("button", { type: "submit", class: "primary", id: "password-submit" }, "Change it"),
        h("p", { class: "hint-line" }, "Your other logins end."),
      ],
    );
    replaceChildren(root, h("div", { class: "account-view" }, [form]));
  }

  destroy() {}

  async submit() {
    try {
      await api.password(
        document.getElementById("old-password").value,
        document.getElementById("new-password").value,
      );
      showNotice("Your password is changed.");
      location.hash = "#/";
    } catch (err) {
      showError(err.message);
    }
  }
}
