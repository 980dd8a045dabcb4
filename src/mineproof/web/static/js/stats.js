// The Statistics view: games played and won per level and kind of board.

import { t } from "./i18n.js";
import { el } from "./util.js";

const TEMPLATE = `
  <div class="table-wrap" tabindex="0" role="region" data-i18n-label="statistics">
    <table id="stats-table">
      <thead><tr>
        <th data-i18n="level"></th><th data-i18n="board_kind"></th><th data-i18n="played"></th>
        <th data-i18n="won"></th><th data-i18n="win_rate"></th><th data-i18n="best_time"></th>
        <th data-i18n="guesses_per_game"></th>
      </tr></thead>
      <tbody></tbody>
    </table>
  </div>
  <p id="no-stats" class="help" data-i18n="no_stats" hidden></p>
`;

export const statsView = {
  name: "stats",
  tab: "statistics",
  create(app, panel) {
    panel.innerHTML = TEMPLATE;
    const s = { stats: null };

    function render() {
      const body = panel.querySelector("tbody");
      const stats = s.stats || [];
      const order = [...Object.keys(app.meta.levels), "custom"];
      const sorted = [...stats].sort((a, b) => order.indexOf(a.level) - order.indexOf(b.level) || b.guess_free - a.guess_free);
      body.replaceChildren(...sorted.map((row) => el("tr", {}, ...[
        [t(row.level), false],
        [row.guess_free ? t("guess_free_short") : t("random_short"), false],
        [row.played, true],
        [row.won, true],
        [row.played ? Math.round((100 * row.won) / row.played) + " %" : "–", true],
        [row.best_time === null ? "–" : row.best_time.toFixed(1) + " s", true],
        [row.guesses_per_game === null ? "–" : row.guesses_per_game.toFixed(2), true],
      ].map(([text, num]) => el("td", { class: num ? "num" : null }, String(text))))));
      panel.querySelector("#no-stats").hidden = s.stats === null || stats.length > 0;
    }

    return {
      render,
      async show() {
        try {
          s.stats = (await app.api("GET", "/api/stats")).stats;
        } catch (err) {
          console.error(err);
        }
        render();
      },
    };
  },
};
