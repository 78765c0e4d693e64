// The account panel's "E-mail" section: the address (saved, then confirmed by the link the server mails to
// it), and which messages to receive, saved as soon as a box is ticked. Everything goes through
// /api/account/notifications and /api/account/email (docs/web.md, "Notifications"); nothing is kept here.
import { api, ApiError, el } from "/static/common.js";
import { t } from "/static/i18n.js";

// The three choices, in the order shown, with what each one sends.
const CHOICES = [
  ["digest", () => t("A daily e-mail listing the games waiting for your move")],
  ["clock", () => t("An e-mail when your clock in a slow game (1 or 3 days a move) has an hour left")],
  ["ended", () => t("An e-mail when one of your games ends")],
];

function said(err) {
  return err instanceof ApiError ? err.message : t("The server could not be reached: try again.");
}

// The section, filled once the settings arrive; it keeps itself up to date after each change.
export function emailSettings() {
  const section = el("section", { class: "notifications", "data-testid": "notifications", "aria-label": t("E-mail") });
  const error = el("div", { class: "error-box hidden", "data-testid": "email-error", role: "alert" });
  let view = null;

  const fail = (err) => {
    error.textContent = said(err);
    error.classList.remove("hidden");
  };
  // Send a change and keep the answer (the new settings), drawn unless `redraw` is false (a ticked box is
  // already right, and keeps the focus). False if it failed (the error is shown).
  const change = async (method, path, body = null, redraw = true) => {
    error.classList.add("hidden");
    try {
      view = await api(method, path, body);
    } catch (err) {
      fail(err);
      return false;
    }
    if (redraw) draw();
    return true;
  };

  const addressForm = (current) => {
    const input = el("input", { type: "email", maxlength: 254, autocomplete: "email", "data-testid": "email-input",
                                "aria-label": t("E-mail address"), placeholder: t("E-mail address") });
    input.value = current || "";
    const save = el("button", { class: "btn small", type: "submit", "data-testid": "email-save" }, t("Save"));
    const form = el("form", { class: "form-row", novalidate: true }, input, save);
    if (current) {
      const cancel = el("button", { class: "btn secondary small", type: "button", "data-testid": "email-cancel" }, t("Cancel"));
      cancel.addEventListener("click", draw);
      form.append(cancel);
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      save.disabled = true;
      if (!await change("PUT", "/api/account/email", { email: input.value })) save.disabled = false;
    });
    return form;
  };

  const address = () => {
    let state;
    if (view.email_confirmed) state = t("{email}: confirmed", { email: view.email });
    else if (view.confirmed_email) {  // a new address waits for its link: the confirmed one still works
      state = t("Waiting for confirmation: we sent a link to {email}. Until it is opened, messages still go to {confirmed}.",
                { email: view.email, confirmed: view.confirmed_email });
    } else state = t("Waiting for confirmation: we sent a link to {email}. Open it to receive messages there.", { email: view.email });
    const button = (label, testid, onClick) => {
      const b = el("button", { class: "btn secondary small", type: "button", "data-testid": testid }, label);
      b.addEventListener("click", onClick);
      return b;
    };
    const buttons = [
      button(t("Change address"), "email-change", () => section.querySelector(".email-address").replaceChildren(addressForm(view.email))),
      button(t("Remove"), "email-remove", () => change("DELETE", "/api/account/email")),
    ];
    if (!view.email_confirmed) {
      buttons.unshift(button(t("Send the link again"), "email-resend", () => change("PUT", "/api/account/email", { email: view.email })));
      if (view.confirmed_email) {
        buttons.push(button(t("Keep {email}", { email: view.confirmed_email }), "email-keep",
                            () => change("PUT", "/api/account/email", { email: view.confirmed_email })));
      }
    }
    return el("div", { class: "email-address" },
      el("p", { "data-testid": "email-state", "data-confirmed": view.email_confirmed ? "yes" : "no" }, state),
      undelivered(),
      el("div", { class: "buttons" }, ...buttons));
  };

  // The last message the server could not deliver after its tries (the server's words, as the mail server gave them).
  const undelivered = () => view.undelivered && el("p", { class: "error-box", "data-testid": "email-undelivered" },
    t("The last message to {email} could not be delivered: {error}",
      { email: view.undelivered.email, error: view.undelivered.error }));

  const choices = () => {
    const boxes = CHOICES.map(([name, label]) => {
      const box = el("input", { type: "checkbox", "data-testid": `email-${name}` });
      box.checked = view[name];
      box.addEventListener("change", async () => {
        box.disabled = true;
        const wanted = box.checked;
        if (!await change("PATCH", "/api/account/notifications", { [name]: wanted }, false)) box.checked = !wanted;
        box.disabled = false;
      });
      return el("label", { class: "email-choice" }, box, " ", label());
    });
    const note = view.email_confirmed ? null
      : el("p", { class: "help", "data-testid": "email-pending-note" },
          t("These messages start once your address is confirmed."));
    return el("fieldset", { class: "email-choices" }, el("legend", {}, t("Send me")), ...boxes, note);
  };

  function draw() {
    const head = el("h3", {}, t("E-mail"));
    if (!view.mail) {
      section.replaceChildren(head, el("p", { class: "muted", "data-testid": "mail-off" }, t("This site sends no e-mail.")));
      return;
    }
    const where = view.email ? address()
      : el("div", { class: "email-address" },
          el("p", { class: "help" }, t("Your address is used only for the messages you choose below, each with a link to stop them.")),
          addressForm(null));
    section.replaceChildren(head, where, choices(), error);
  }

  (async () => {
    try {
      view = await api("GET", "/api/account/notifications");
    } catch (err) {
      section.replaceChildren(el("h3", {}, t("E-mail")), error);
      fail(err);
      return;
    }
    draw();
  })();
  // Back from the mail program, where the link was opened: show the address confirmed.
  document.addEventListener("visibilitychange", async function back() {
    if (!section.isConnected && view) { document.removeEventListener("visibilitychange", back); return; }  // signed out
    if (document.hidden || !view || !view.email || view.email_confirmed) return;
    try { view = await api("GET", "/api/account/notifications"); } catch { return; }
    if (view.email_confirmed) draw();
  });
  return section;
}
