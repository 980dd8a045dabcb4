// The Statistics view: per kind of board (each custom size its own row) and help, games played
// (abandoned ones count as lost), won, streaks and best times, and a chart of the winning times
// without help, drawn as SVG here.

import { TECHNIQUE_NAMES, decimal, percentText, t } from "./i18n.js";
import { el } from "./util.js";

const TEMPLATE = `
  <div class="table-wrap" tabindex="0" role="region" data-i18n-label="statistics">
    <table id="stats-table">
      <thead><tr>
        <th data-i18n="level"></th><th data-i18n="board_kind"></th><th data-i18n="help_kind"></th>
        <th data-i18n="played"></th><th data-i18n="won"></th><th data-i18n="win_rate"></th>
        <th data-i18n="abandoned"></th><th data-i18n="best_time"></th><th data-i18n="streak"></th>
        <th data-i18n="best_streak"></th><th data-i18n="guesses_per_game"></th>
      </tr></thead>
      <tbody></tbody>
    </table>
  </div>
  <p id="no-stats" class="help" data-i18n="no_stats" hidden></p>
  <p class="help" data-i18n="stats_help"></p>
  <h2 class="help" data-i18n="times_chart"></h2>
  <div id="charts" class="charts"></div>
`;

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

// The name of a row's level: a standard level, or a custom board's size.
function levelName(row) {
  if (row.level !== "custom") return t(row.level);
  return `${t("custom")} ${t("custom_size", { width: row.width, height: row.height, mines: row.mines })}`;
}

// The kind of board of a row: guess-free or random, its technique, a gentler start.
function boardName(row) {
  const parts = [row.guess_free ? t("guess_free_short") : t("random_short")];
  if (row.technique !== "any") parts.push(t(TECHNIQUE_NAMES[row.technique]));
  if (row.reveal) parts.push(t("gentle_short"));
  return parts.join(", ");
}

// A chart of winning times in the order played: a line through them, the best time dashed.
function chart(row) {
  const times = row.times;
  const [w, h, left, bottom] = [300, 130, 34, 18];
  const most = Math.max(...times);
  const top = most * 1.1 || 1;
  const x = (i) => left + (times.length === 1 ? (w - left) / 2 : (i * (w - left - 8)) / (times.length - 1));
  const y = (v) => h - bottom - (v / top) * (h - bottom - 8);
  const title = `${levelName(row)}, ${boardName(row)}`;
  const label = t("chart_label", { board: title, n: times.length, best: decimal(row.best_time, 1) });
  const picture = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": label });
  picture.append(
    svg("line", { class: "axis", x1: left, y1: h - bottom, x2: w, y2: h - bottom }),
    svg("line", { class: "axis", x1: left, y1: 4, x2: left, y2: h - bottom }),
    svg("text", { x: left - 4, y: h - bottom, "text-anchor": "end" }, "0"),
    svg("text", { x: w - 2, y: h - 4, "text-anchor": "end" }, t("chart_won", { n: times.length })),
    svg("line", { class: "best", x1: left, y1: y(row.best_time), x2: w, y2: y(row.best_time) }),
    svg("polyline", { class: "line", points: times.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ") }),
  );
  // The longest time on the axis, unless it is too near the 0 to be read apart from it.
  if (y(most) < h - bottom - 12) {
    picture.append(svg("text", { x: left - 4, y: y(most) + 4, "text-anchor": "end" }, decimal(most, most < 10 ? 1 : 0)));
  }
  for (const [i, v] of times.entries()) {
    const dot = svg("circle", { class: "dot", cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 2.5 });
    dot.appendChild(svg("title", {}, `${decimal(v, 1)} s`));
    picture.appendChild(dot);
  }
  return el("figure", { class: "chart" }, picture, el("figcaption", {}, label));
}

export const statsView = {
  name: "stats",
  tab: "statistics",
  create(app, panel) {
    panel.innerHTML = TEMPLATE;
    const s = { stats: null };

    function render() {
      const body = panel.querySelector("tbody");
      const stats = s.stats || [];
      body.replaceChildren(...stats.map((row) => el("tr", { "data-assisted": String(row.assisted) }, ...[
        [levelName(row), false],
        [boardName(row), false],
        [row.assisted ? t("assisted") : t("unassisted"), false],
        [row.played, true],
        [row.won, true],
        [row.played ? percentText((100 * row.won) / row.played) : "–", true],
        [row.abandoned, true],
        [row.best_time === null ? "–" : decimal(row.best_time, 1) + " s", true],
        [row.streak, true],
        [row.best_streak, true],
        [row.guesses_per_game === null ? "–" : decimal(row.guesses_per_game, 2), true],
      ].map(([text, num]) => el("td", { class: num ? "num" : null }, String(text))))));
      panel.querySelector("#no-stats").hidden = s.stats === null || stats.length > 0;
      panel.querySelector("#charts").replaceChildren(
        ...stats.filter((row) => !row.assisted && row.times.length).map(chart),
      );
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
