// The account page's turn notifications and vacation (server mode, "#/notifications"):
// the e-mail address, the digest's interval, the clock warning, and a vacation that
// pauses the correspondence clocks. The server checks everything; this only asks.

import { clearAlert, showError, showNotice } from "./alerts.js";
import { api } from "./api.js";
import { actionForm, h, replaceChildren } from "./dom.js";

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString();
}

export class NotificationsView {
  constructor(root) {
    this.root = root;
    this.load();
  }

  destroy() {}

  async load() {
    try {
      this.settings = await api.notifications();
    } catch (err) {
      showError(err.message);
      return;
    }
    this.build();
  }

  build() {
    const st = this.settings;
    const mail = st.mail
      ? actionForm({ class: "card account-form", id: "mail-form" }, () => this.save(), [
          h("h2", {}, "Turn notifications by e-mail"),
          h("label", { class: "field" }, [
            h("span", {}, "E-mail address (empty: no mail)"),
            h("input", {
              id: "mail-email",
              type: "email",
              value: st.email || "",
              maxlength: 254,
              autocomplete: "email",
            }),
          ]),
          st.email
            ? h(
                "p",
                { class: "hint-line", id: "mail-confirmed" },
                st.confirmed
                  ? "This address is confirmed."
                  : "Not confirmed yet: open the link of the mail we sent (saving sends it again).",
              )
            : null,
          h("label", { class: "field" }, [
            h("span", {}, "A digest of the games waiting for your move"),
            h("select", { id: "mail-digest" }, [
              h("option", { value: "" }, "never"),
              ...st.digest_choices.map((hours) =>
                h(
                  "option",
                  { value: String(hours), selected: st.digest_hours === hours ? true : null },
                  `at most every ${hours} hour${hours === 1 ? "" : "s"}`,
                ),
              ),
            ]),
          ]),
          h("label", { class: "field" }, [
            h(
              "span",
              {},
              "Warn me when a correspondence clock has less than (hours; empty: never)",
            ),
            h("input", {
              id: "mail-warn",
              type: "number",
              min: 1,
              max: st.max_warn_hours,
              step: 1,
              value: st.warn_hours ?? "",
            }),
          ]),
          h("button", { type: "submit", class: "primary", id: "mail-submit" }, "Save"),
        ])
      : h("div", { class: "card account-form" }, [
          h("h2", {}, "Turn notifications by e-mail"),
          h("p", { class: "hint-line" }, "This server sends no mail."),
        ]);
    const vacation = st.vacation;
    const left = vacation.most - vacation.used;
    const holiday = actionForm(
      { class: "card account-form", id: "vacation-form" },
      () => this.vacation(),
      [
        h("h2", {}, "Vacation"),
        h(
          "p",
          { class: "hint-line", id: "vacation-status" },
          vacation.until
            ? `You are on vacation until ${when(vacation.until)}: your correspondence clocks do not run.`
            : `Your correspondence clocks stop while you are away (live games go on). ` +
                `${vacation.used} of ${vacation.most} days taken in ${vacation.year}.`,
        ),
        vacation.until
          ? h("button", { type: "submit", class: "primary", id: "vacation-end" }, "End it now")
          : h("label", { class: "field" }, [
              h("span", {}, "Days"),
              h("input", {
                id: "vacation-days",
                type: "number",
                min: 1,
                max: Math.max(1, left),
                step: 1,
                required: true,
              }),
            ]),
        vacation.until
          ? null
          : h(
              "button",
              { type: "submit", class: "primary", id: "vacation-start" },
              "Go on vacation",
            ),
      ],
    );
    replaceChildren(
      this.root,
      h("div", { class: "account-view notifications-view" }, [mail, holiday]),
    );
  }

  async save() {
    clearAlert();
    const email = document.getElementById("mail-email").value.trim();
    const digest = document.getElementById("mail-digest").value;
    const warn = document.getElementById("mail-warn").value.trim();
    try {
      this.settings = await api.setNotifications({
        email: email || null,
        digest_hours: digest ? Number(digest) : null,
        warn_hours: warn ? Number(warn) : null,
      });
      showNotice(
        !email
          ? "No more mail."
          : this.settings.confirmed
            ? "Saved."
            : "Saved: open the link of the mail we sent to confirm the address.",
      );
    } catch (err) {
      showError(err.message);
      return;
    }
    this.build();
  }

  async vacation() {
    clearAlert();
    try {
      if (this.settings.vacation.until) {
        this.settings.vacation = await api.endVacation();
        showNotice("Your vacation has ended: your clocks run again.");
      } else {
        const days = Number(document.getElementById("vacation-days").value);
        this.settings.vacation = await api.startVacation(days);
        showNotice(`You are on vacation until ${when(this.settings.vacation.until)}.`);
      }
    } catch (err) {
      showError(err.message);
      return;
    }
    this.build();
  }
}
