// /learn: open this browser's tutorial game if it is still running, else start a new one, then go to its table.
// /learn?edition=second teaches the second edition (the first by default), /learn?edition=second&mode=advanced its
// advanced game; a running tutorial of another lesson is left for a new one.
import { api, saveTokens, TUTORIAL_KEY } from "/static/common.js";
import { t } from "/static/i18n.js";

async function open() {
  const saved = JSON.parse(localStorage.getItem(TUTORIAL_KEY) || "null");
  const query = new URLSearchParams(location.search);
  const edition = query.get("edition") === "second" ? "second" : "first";
  const mode = edition === "second" && query.get("mode") === "advanced" ? "advanced" : "standard";
  if (saved && (saved.edition || "first") === edition && (saved.mode || "standard") === mode && !query.has("again")) {
    try {
      const game = await api("GET", `/api/games/${saved.id}`);
      const learner = game.seats[0];  // left or away: a stand-in bot plays it, off the script
      if (game.status === "running" && !learner.left && !learner.away) { location.replace(`/game/${saved.id}`); return; }
    } catch (err) { /* gone (another database): start a new one */ }
  }
  const started = await api("POST", `/api/learn?lesson=${mode === "advanced" ? "advanced" : edition}`);
  saveTokens(started.id, [started.token]);
  localStorage.setItem(TUTORIAL_KEY, JSON.stringify({ id: started.id, tutor: started.tutor_token, step: 0, edition, mode }));
  location.replace(`/game/${started.id}`);
}

open().catch((err) => {
  document.getElementById("learn-status").textContent = t("The tutorial could not start: {problem}", { problem: err.message });
});
