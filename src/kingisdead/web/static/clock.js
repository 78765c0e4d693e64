// Move time limits at the table and in the lobby: the clock of the seat to move, "your turn" in the
// title, on the favicon and (if allowed) as a notification, and the seat buttons: take back, leave, return.
// The server enforces every deadline; the clock here only shows it.
import { api, el, levelLabel, toast } from "/static/common.js";
import { t } from "/static/i18n.js";

export const TIME_LIMITS = [120, 600, 86400, 259200];

// A time limit in words: "2 minutes", "1 day", "none".
export function limitText(seconds) {
  if (seconds === null || seconds === undefined) return t("no time limit");
  if (seconds < 3600) return t("{n} min per move", { n: seconds / 60 });
  const days = seconds / 86400;
  return days === 1 ? t("1 day per move") : t("{n} days per move", { n: days });
}

// Time left, to the second under an hour (in minutes with `seconds` false: a list of slow games), then hours
// and minutes, then days and hours.
export function remainingText(ms, seconds = true) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 3600 && !seconds) return t("{m} min", { m: Math.max(1, Math.floor(s / 60)) });
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (s < 86400) return t("{h} h {m} min", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return t("{d} d {h} h", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
}

// ---------- the clock ----------
let ticking = null;  // {node, deadline}: the clock on screen, updated every second
const URGENT_MS = 3600 * 1000;  // a game list marks your clock urgent in its last hour

function paint({ node, deadline }) {
  const left = Date.parse(deadline) - Date.now();
  node.textContent = left > 0 ? t("{time} left", { time: remainingText(left) }) : t("time is up");
  node.classList.toggle("low", left < 30000);
}

// A game list's clock (gameClock): to the minute, urgent in your last hour.
function paintListed(node) {
  const left = Date.parse(node.dataset.deadline) - Date.now();
  node.textContent = left > 0 ? t("{time} left", { time: remainingText(left, false) }) : t("time is up");
  const urgent = node.dataset.yours === "yes" && left < URGENT_MS;
  node.classList.toggle("urgent", urgent);
  node.dataset.urgent = urgent ? "yes" : "no";
}

setInterval(() => {
  if (ticking && ticking.node.isConnected) paint(ticking);
  document.querySelectorAll(".clock[data-deadline]").forEach(paintListed);
}, 1000);

// The clock of the seat to move, or "" when no clock runs (no limit, a bot to move, the game over).
export function clockNode(view) {
  if (!view.deadline || view.status === "finished") { ticking = null; return ""; }
  const node = el("span", { class: "clock", "data-testid": "clock", title: limitText(view.time_limit) });
  ticking = { node, deadline: view.deadline };
  paint(ticking);
  return node;
}

// The time left to the seat to move in a list of games (the lobby's "my games"), or "" when no clock runs;
// `yours`: that seat is yours (then its last hour is marked urgent). Repainted with the table's clock.
export function gameClock(game, yours) {
  if (!game.deadline || game.status === "finished") return "";
  const node = el("span", { class: "clock listed", "data-testid": "game-clock", "data-deadline": game.deadline,
                            "data-yours": yours ? "yes" : "no",
                            title: yours ? t("time left for your move ({limit})", { limit: limitText(game.time_limit) })
                              : t("time left for the player to move ({limit})", { limit: limitText(game.time_limit) }) });
  paintListed(node);
  return node;
}

// ---------- "your turn": title, favicon badge, notification ----------
const baseTitle = document.title;
const icon = document.querySelector("link[rel=icon]");
const plainIcon = icon ? icon.getAttribute("href") : null;
let badged = null;     // the favicon with its badge, as a data: URL (drawn once)
let wasMine = false;

function drawBadge() {
  if (!badged) badged = new Promise((resolve) => {
    const image = new Image();
    image.onload = () => {
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 64;
      const g = canvas.getContext("2d");
      g.drawImage(image, 0, 0, 64, 64);
      g.beginPath();
      g.arc(46, 18, 16, 0, 2 * Math.PI);
      g.fillStyle = "#d93025";
      g.fill();
      g.lineWidth = 4;
      g.strokeStyle = "#fff";
      g.stroke();
      resolve(canvas.toDataURL("image/png"));
    };
    image.onerror = () => resolve(null);
    image.src = plainIcon;
  });
  return badged;
}

// Call on every new view: `mine` is true while this browser's seat is to move.
export async function signalTurn(mine, gameId) {
  document.title = mine ? `● ${t("Your turn")} · ${baseTitle}` : baseTitle;
  document.body.dataset.badge = mine ? "on" : "off";
  if (mine && !wasMine && document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(t("Your turn"), { body: t("It is your turn to play in The King Is Dead."), tag: `kid-${gameId}` });
  }
  wasMine = mine;
  if (!icon || !plainIcon) return;
  const href = mine ? await drawBadge() : null;
  if (mine !== wasMine) return;  // the turn changed while the badge was drawn
  icon.setAttribute("type", href ? "image/png" : "image/svg+xml");
  icon.setAttribute("href", href || plainIcon);
}

// ---------- the seat's buttons ----------
// onView(view) is called with the answer of each action (the server's view for this seat, already rewound
// after a take-back); `rerender` when only this browser's state changed (notification permission).
export function seatTools(view, gameId, token, onView, rerender) {
  if (view.you === null || view.you === undefined || view.status === "finished" || !token) return "";
  const seat = view.seats[view.you];
  const act = (path, label) => async (event) => {
    event.target.disabled = true;
    try { onView(await api("POST", `/api/games/${gameId}/${path}`, null, token)); }
    catch (err) { toast(err.message); event.target.disabled = false; }
  };
  const tools = [];
  if (seat.away) {
    tools.push(el("span", { class: "muted", "data-testid": "away-note" },
      t("You ran out of time: the {level} bot plays for you.", { level: levelLabel(view.stand_in) })));
    tools.push(tool(t("Take my seat back"), "return", act("return")));
  }
  if (view.takeback) tools.push(tool(t("Take back"), "takeback", act("takeback"),
                                     t("undo your last move and the bots' replies")));
  if (!seat.left) {
    const leave = tool(t("Leave game"), "leave", async (event) => {
      if (!window.confirm(t("Leave this game for good? The {level} bot will finish it for you.", { level: levelLabel(view.stand_in) }))) return;
      await act("leave")(event);
    }, t("a bot finishes the game in your place; you cannot come back"));
    tools.push(leave);
  }
  if ("Notification" in window && Notification.permission === "default") {
    tools.push(tool(t("Notify me on my turn"), "notify", async () => {
      // the button goes once the browser has answered: say so when the answer is no
      if (await Notification.requestPermission() === "denied") toast(t("Your browser refuses this site's notifications: allow them in its settings for this site to be told of your turn."));
      rerender();
    }, t("a notification when it becomes your turn while this page is in the background")));
  }
  return el("div", { class: "seat-tools", "data-testid": "seat-tools" }, ...tools);
}

function tool(label, testid, onClick, title = null) {
  const b = el("button", { class: "btn secondary small", "data-testid": testid, title }, label);
  b.addEventListener("click", onClick);
  return b;
}

// ---------- the lobby's settings ----------
// Two form rows (time limit, stand-in level) for the create form; values() gives the body's fields.
// `reminders`: what this site can send (GET /api/meta's {mail, push}).
export function clockSettings(levels, reminders) {
  const limit = el("select", { id: "time-limit", class: "clock-setting", "data-testid": "time-limit", "aria-label": t("Time per move") },
    el("option", { value: "" }, t("no time limit")),
    ...TIME_LIMITS.map((s) => el("option", { value: String(s) }, limitText(s))));
  const standIn = el("select", { id: "stand-in", class: "clock-setting", "data-testid": "stand-in", "aria-label": t("Stand-in bot") },
    ...levels.map((l) => el("option", { value: l.name }, levelLabel(l.name))));
  standIn.value = levels.some((l) => l.name === "intermediate") ? "intermediate" : levels[0].name;
  const timeout = el("p", { class: "help timeout-help", "data-testid": "timeout-help", "aria-live": "polite" });
  const explain = () => { timeout.textContent = timeoutText(limit.value === "" ? null : Number(limit.value), standIn.value, reminders); };
  limit.addEventListener("change", explain);
  standIn.addEventListener("change", explain);
  explain();
  const rows = [
    el("div", { class: "form-row" }, el("label", { class: "lbl", for: "time-limit" }, t("Time per move")), limit),
    el("div", { class: "form-row" }, el("label", { class: "lbl", for: "stand-in" }, t("Stand-in bot")), standIn,
       el("span", { class: "help", "data-testid": "stand-in-help" }, t("the bot that plays for a person who runs out of time (until they come back) or leaves the game"))),
    timeout,
  ];
  // A rated game's stand-in is at most as strong as the levels in `allowed` (the server refuses stronger ones).
  const rated = (on, allowed) => {
    for (const option of standIn.options) option.disabled = on && !allowed.includes(option.value);
    if (on && !allowed.includes(standIn.value)) standIn.value = allowed[allowed.length - 1];
    explain();
  };
  return { rows, rated, values: () => ({ time_limit: limit.value === "" ? null : Number(limit.value), stand_in: standIn.value }) };
}

// What running out of time does under a limit (seconds, or null) with the stand-in `level`, as the server does it
// (clocks.py: the seat is away and the stand-in plays it until its player takes it back; ratings.py: a seat the
// stand-in played more than its player is rated as a loss). Slow clocks add where the reminders come from, as far as
// this site can send them (`reminders`: GET /api/meta's {mail, push}).
export function timeoutText(seconds, level, reminders) {
  if (seconds === null) return t("No time limit: nobody runs out of time. The stand-in bot plays only for a person who leaves the game.");
  const parts = [
    t("Whoever runs out of time ({limit}) is played by the {level} bot until they come back.", { limit: limitText(seconds), level: levelLabel(level) }),
    t("In a rated game, a seat played more by the stand-in than by its player counts as a loss."),
  ];
  if (seconds >= 86400) parts.push(reminderText(reminders));
  return parts.join(" ");
}

function reminderText({ mail, push }) {
  if (mail && push) return t("Reminders of your turn and of your last hour come by e-mail and push once you turn them on in your account.");
  if (mail) return t("Reminders of your turn and of your last hour come by e-mail once you turn them on in your account.");
  if (push) return t("Reminders of your turn and of your last hour come as notifications on your devices once you turn them on in your account.");
  return t("This site sends no reminders by e-mail or push: look in on your games from the lobby.");
}
