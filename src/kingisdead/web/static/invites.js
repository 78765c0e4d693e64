// The creator's invite links: shown in the lobby once the game is made, and kept in this browser so that the
// table shows each free seat's link (with a copy button) until someone takes the seat. The server hands an
// invite out only once, at creation: this browser is the only place it is kept.
import { el, toast } from "/static/common.js";
import { t } from "/static/i18n.js";

const key = (gameId) => `kid:invites:${gameId}`;

function stored(gameId) {
  try { return JSON.parse(localStorage.getItem(key(gameId)) || "{}"); } catch { return {}; }
}

// Keep the invite links of a new game's seats (POST /api/games's seats that carry an "invite").
export function keepInvites(gameId, seats) {
  const links = Object.fromEntries(seats.filter((s) => s.invite).map((s) => [s.seat, s.invite]));
  if (Object.keys(links).length) localStorage.setItem(key(gameId), JSON.stringify(links));
}

// An invite link in a read-only field with its copy button; `testid` names the row.
export function inviteField(link, testid, ...more) {
  const input = el("input", { readonly: true, value: link, "aria-label": t("invite link") });
  const copy = el("button", { class: "btn secondary small", type: "button" }, t("Copy"));
  copy.addEventListener("click", async () => {
    input.select();
    try { await navigator.clipboard.writeText(link); toast(t("Link copied")); }
    catch { document.execCommand("copy"); }
  });
  return el("div", { class: "inv", "data-testid": testid }, ...more, input, copy);
}

// The table: the kept link of a free seat (null when this browser keeps none); links of seats taken since
// are forgotten. `view`: the table's view (GET /api/games/{id}).
export function tableInvite(view, seat) {
  const links = stored(view.id);
  const taken = view.seats.filter((s) => s.claimed && links[s.seat]);
  if (taken.length) {
    for (const s of taken) delete links[s.seat];
    localStorage.setItem(key(view.id), JSON.stringify(links));
  }
  const link = links[seat.seat];
  if (!link || seat.claimed || view.status === "finished") return null;
  return inviteField(link, `table-invite-${seat.seat}`,
                     el("span", { class: "muted" }, t("Invite link (send it only to this player):")));
}
