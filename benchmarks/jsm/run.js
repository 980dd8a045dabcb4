#!/usr/bin/env node
// Plays JSMinesweeper's own solver (DavidNHill/JSMinesweeper, files in ./src, unchanged) on
// fixed Minesweeper layouts, the way main.js's bulkRun() plays its games.
//
// usage: node run.js games.jsonl [--quiet] [--messages] [--trace] [--seed-random N] > results.jsonl
//
// Input: one game per line {"index","width","height","mines","start":[x,y],"rule","layout":[y*w+x,...]}
// Output: one line per game, in input order:
//   {"index": i, "won": bool, "guesses": [[x, y, p_mine], ...], "moves": [[x, y], ...]}
// "moves" are all the cells clicked, our start cell first; "guesses" are the clicks the solver
// made when it had no certain move, with the probability of a mine the solver gave the cell
// (and, with --messages, the solver's own message for the move: why it chose the cell).
// --trace: a game line may hold "trace": k; the solver then runs verbose in that game, and the
// output gets "trace": the lines the solver wrote while choosing its k-th guess (0-based), such
// as each candidate's secondary safety, 50/50 influence, progress and final score.
// stderr: progress (unless --quiet), the total, CPU seconds and the count of failed checks.

"use strict";

const fs = require("fs");
const path = require("path");
const vm = require("vm");
const readline = require("readline");

// ---------- arguments ----------
const args = process.argv.slice(2);
let input = null, quiet = false, seedRandom = null, bulk = null, countSlowPe = false, messages = false, trace = false;
for (let i = 0; i < args.length; i++) {
    if (args[i] === "--quiet") quiet = true;
    else if (args[i] === "--messages") messages = true;
    else if (args[i] === "--trace") trace = true;
    else if (args[i] === "--count-slow-pe") countSlowPe = true;
    else if (args[i] === "--bulkrun") { bulk = { seed: Number(args[++i]), size: Number(args[++i]), modern: args[++i] === "modern" }; }
    else if (args[i] === "--seed-random") seedRandom = Number(args[++i]);
    else if (input === null) input = args[i];
    else { console.error("unexpected argument " + args[i]); process.exit(2); }
}
if (input === null && bulk === null) {
    console.error("usage: node run.js games.jsonl [--quiet] [--messages] [--seed-random N]\n" +
                  "       node run.js --bulkrun SEED SIZE modern|classic [--quiet]   (main.js bulkRun's own games)");
    process.exit(2);
}

// ---------- the JSMinesweeper context ----------
// The files are loaded unchanged, in this order, into one V8 context; top-level classes,
// consts and functions of one file are visible to the others, as in the browser page.
const SRC = path.join(__dirname, "src");
const FILES = [
    "PrimeSieve.js",            // Minesweeper/Utility
    "Binomial.js",              // Minesweeper/Utility
    "Tile.js",
    "Board.js",                 // also holds class Compressor
    "solver_probability_engine.js",
    "SolutionCounter.js",
    "Brute_force.js",
    "BruteForceAnalysis.js",
    "LongTermRiskHelper.js",
    "FiftyFiftyHelper.js",
    "EfficiencyHelper.js",
    "solver_main.js",
    "MinesweeperGame.js",
];

const noop = () => {};
// The solver's own console output is noise here: silence console.log & co (our output goes
// through process.stdout / process.stderr directly). console.error is kept, prefixed.
const consoleError = console.error.bind(console);
console.log = console.info = console.warn = console.debug = console.trace = noop;
// --trace: the verbose solver's lines since its last call, kept here
const traceLines = [];
globalThis.__traceLine = (...a) => { traceLines.push(a.join(" ")); };
globalThis.__traceReset = () => { traceLines.length = 0; };
globalThis.__traceTake = () => traceLines.slice();
console.error = (...a) => consoleError("[jsm console.error]", ...a);

// All files run in this (the main) context, with vm.runInThisContext: a separate vm context
// with a sandbox global makes every global look-up slow (several times the CPU).
const context = globalThis;
const runIn = (code, opts) => vm.runInThisContext(code, opts);

if (seedRandom !== null) {
    // optional: a seeded Math.random (mulberry32) for the only random numbers the solver draws
    // (BruteForceAnalysis' SolutionTable hashes, used to spot linked tiles)
    let a = seedRandom >>> 0;
    Math.random = function () {
        a = (a + 0x6D2B79F5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

// stubs for the page things the solver files touch (they live in main.js / index.html)
runIn(`
    var BOMB = 9;                        // main.js
    var MAX_BINOMIAL_N = 65000;          // main.js
    var analysisMode = false;            // main.js: we play, we don't analyse
    var oldrng = false;                  // main.js: used by JSF() in MinesweeperGame.js
    var board = null;                    // main.js's global board (LongTermRiskHelper reads board.width/height)
    var binomialCache;                   // main.js
    var __lastMessage = "";              // the solver's last message (kept for --messages)
    function showMessage(text) { __lastMessage = text; }   // main.js: message bar
    function sleep(ms) { return Promise.resolve(); }   // main.js: yields to the page; nothing to yield to here
`, { filename: "stubs.js" });

for (const f of FILES) {
    const file = path.join(SRC, f);
    if (!fs.existsSync(file)) {
        if (f === "FiftyFiftyHelper.js") continue;   // not called by the solver (its use in solver_main.js is commented out)
        throw new Error("missing " + file);
    }
    runIn(fs.readFileSync(file, "utf8"), { filename: f });
}

// diagnostic only (--count-slow-pe): count probability-engine runs that took 50 ms or more of
// wall-clock time; solver_main.js skips its tie-break (best-guess) analysis after such a run
// (\`if (pe.duration < 50)\`), so a slow machine can change a guess.
let slowPe = 0, allPe = 0;
if (countSlowPe) {
    const proc = ProbabilityEngine.prototype.process;
    ProbabilityEngine.prototype.process = function () {
        proc.call(this);
        allPe++;
        if (this.duration >= 50) slowPe++;
    };
}

// as main.js startup() does
runIn(`
    binomialCache = new BinomialCache(5000, 500, new Binomial(MAX_BINOMIAL_N, 500));
`, { filename: "startup.js" });

// one game, played as main.js bulkRun() plays it, with our mines and our first click
runIn(`
async function __playGame(width, height, mines, startIndex, gameType, layout, seed, traceAt) {

    const options = {};                          // exactly bulkRun()'s options
    options.playStyle = PLAY_STYLE_NOFLAGS;
    options.verbose = traceAt != null;           // --trace only: the solver's log, kept
    let traced = null;
    const quietLog = console.log;
    if (traceAt != null) console.log = __traceLine;
    options.advancedGuessing = true;
    options.fullProbability = true;
    options.hardcore = false;

    const game = new ServerGame(0, width, height, mines, startIndex, seed, gameType);

    // put our mines in: the array is width, height, mines, x1, y1, x2, y2, ...
    // (layout null: keep the mines the game placed from its seed, as bulkRun() does)
    if (layout != null) {
        const array = [width, height, mines];
        for (const i of layout) {
            array.push(i % width, Math.floor(i / width));
        }
        game.resetMinesUsingArray(array);
    }

    const board = new Board(0, width, height, mines, seed, gameType);
    globalThis.board = board;

    const moves = [];
    const guesses = [];
    const replies = [];

    let tile = game.getTile(startIndex);
    moves.push([tile.getIndex() % width, Math.floor(tile.getIndex() / width)]);

    let revealedTiles = game.clickTile(tile);
    replies.push(revealedTiles);
    applyResults(board, revealedTiles);  // this is in MinesweeperGame.js

    let loopCheck = 0;
    while (revealedTiles.header.status == IN_PLAY) {

        loopCheck++;

        if (loopCheck > 10000) {
            break;
        }

        __checkBoard(board);

        __traceReset();
        const reply = await solver(board, options);  // look for solutions

        const actions = reply.actions;

        for (let i = 0; i < actions.length; i++) {

            const action = actions[i];

            if (action.action == ACTION_CHORD) {
                console.log("Got a chord request!");

            } else if (action.action == ACTION_FLAG) {   // zero safe probability == mine
                console.log("Got a flag request!");

            } else {   // otherwise we're trying to clear

                if (i == 0 || action.prob == 1) {

                    if (action.prob == 0) {
                        console.error("CLEAR request received with zero safety!")
                    }

                    tile = game.getTile(board.xy_to_index(action.x, action.y));

                    moves.push([action.x, action.y]);
                    if (action.prob != 1) {
                        if (guesses.length === traceAt) traced = __traceTake();
                        guesses.push([action.x, action.y, action.prob, __lastMessage]);
                    }

                    revealedTiles = game.clickTile(tile);
                    replies.push(revealedTiles);

                    if (revealedTiles.header.status != IN_PLAY) {  // if won or lost nothing more to do
                        break;
                    }

                    applyResults(board, revealedTiles);
                }

                if (action.prob != 1) {  // do no more actions after a guess
                    break;
                }
            }
        }

    }

    const mineIndexes = [];
    for (const t of game.tiles) {
        if (t.isBomb()) mineIndexes.push(t.getIndex());
    }
    console.log = quietLog;
    return { status: revealedTiles.header.status, moves: moves, guesses: guesses, replies: replies, loopCheck: loopCheck, mines: mineIndexes, trace: traced };
}
`, { filename: "bulkrun.js" });

// ---------- independent checks (plain JS, nothing from JSMinesweeper) ----------
let failures = 0;
let currentCheck = null;      // {width, height, mineSet, index}
const failureNotes = [];

function fail(msg) {
    failures++;
    if (failureNotes.length < 20) failureNotes.push("game " + currentCheck.index + ": " + msg);
}

function neighbourMines(c, i) {
    const x = i % c.width, y = Math.floor(i / c.width);
    let n = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        if (dx === 0 && dy === 0) continue;
        const xx = x + dx, yy = y + dy;
        if (xx >= 0 && xx < c.width && yy >= 0 && yy < c.height && c.mineSet.has(yy * c.width + xx)) n++;
    }
    return n;
}

// every number the solver is about to see matches our layout
context.__checkBoard = function (board) {
    const c = currentCheck;
    if (c === null) return;          // --bulkrun: the mines are known only after the game (checked then)
    for (let i = 0; i < board.tiles.length; i++) {
        const t = board.tiles[i];
        if (t.isCovered()) continue;
        if (c.mineSet.has(i)) { fail("cell " + i + " shown open but is a mine"); continue; }
        if (t.getValue() !== neighbourMines(c, i)) fail("cell " + i + " shows " + t.getValue() + ", layout says " + neighbourMines(c, i));
    }
};

function checkGame(c, result) {
    // every click: a loss only on a mine, anything else never on a mine
    const opened = new Set();
    for (let k = 0; k < result.replies.length; k++) {
        const [x, y] = result.moves[k];
        const i = y * c.width + x;
        const status = result.replies[k].header.status;
        if (status === "lost") {
            if (!c.mineSet.has(i)) fail("lost on " + x + "," + y + " which is not a mine");
            if (k !== result.replies.length - 1) fail("play went on after a loss");
        } else if (c.mineSet.has(i)) {
            fail("clicked mine " + x + "," + y + " without losing");
        }
        for (const t of result.replies[k].tiles) {
            if (t.action !== 1) continue;
            if (c.mineSet.has(t.index)) fail("mine " + t.index + " revealed as a number");
            if (t.value !== neighbourMines(c, t.index)) fail("cell " + t.index + " revealed as " + t.value);
            opened.add(t.index);
        }
    }
    const won = result.status === "won";
    if (won) {
        const safe = c.width * c.height - c.mineSet.size;
        if (opened.size !== safe) fail("won with " + opened.size + " of " + safe + " safe cells opened");
    } else if (result.status !== "lost") {
        fail("game ended neither won nor lost: " + result.status);
    }
    if (result.guesses.length > result.moves.length) fail("more guesses than moves");
    return won;
}

// ---------- main loop ----------
async function main() {
    const rl = readline.createInterface({ input: fs.createReadStream(input), crlfDelay: Infinity });
    await runIn("solver()");   // main.js startup(): 'initialise the solver' (sets solver.countSolutions)
    const cpu0 = process.cpuUsage();
    let played = 0, won = 0, guessesTotal = 0;
    const out = [];

    for await (const line of rl) {
        if (line.trim() === "") continue;
        const g = JSON.parse(line);
        const startIndex = g.start[1] * g.width + g.start[0];
        const gameType = g.rule === "opening" ? "zero" : "safe";

        currentCheck = { index: g.index, width: g.width, height: g.height, mineSet: new Set(g.layout) };
        if (currentCheck.mineSet.size !== g.mines || g.layout.length !== g.mines) fail("layout has " + currentCheck.mineSet.size + " distinct mines, expected " + g.mines);
        if (currentCheck.mineSet.has(startIndex)) fail("start cell is a mine");

        const traceAt = trace && g.trace != null ? g.trace : null;
        const result = await context.__playGame(g.width, g.height, g.mines, startIndex, gameType, g.layout, 0, traceAt);
        const isWon = checkGame(currentCheck, result);

        played++;
        if (isWon) won++;
        guessesTotal += result.guesses.length;

        const rec = {
            index: g.index,
            won: isWon,
            guesses: result.guesses.map(([x, y, safe, message]) => {
                const guess = [x, y, Number((1 - safe).toPrecision(12))];
                return messages ? [...guess, message] : guess;
            }),
            moves: result.moves,
        };
        if (traceAt != null) rec.trace = result.trace;
        process.stdout.write(JSON.stringify(rec) + "\n");

        if (!quiet && played % 100 === 0) {
            process.stderr.write(`${played} games, ${won} won (${(100 * won / played).toFixed(2)}%), ` +
                `${cpuSeconds(cpu0).toFixed(1)} s CPU\n`);
        }
    }

    const cpu = cpuSeconds(cpu0);
    process.stderr.write(`played ${played}, won ${won} (${played ? (100 * won / played).toFixed(2) : 0}%), ` +
        `guesses ${guessesTotal}, CPU ${cpu.toFixed(1)} s (${played ? (1000 * cpu / played).toFixed(1) : 0} ms/game)\n`);
    if (countSlowPe) process.stderr.write(`probability engine runs: ${allPe}, of them >= 50 ms: ${slowPe}\n`);
    reportFailures();
}

// CPU seconds (user + system) of this process since `start` (a process.cpuUsage() value)
function cpuSeconds(start) {
    const u = process.cpuUsage(start);
    return (u.user + u.system) / 1e6;
}

// the failed checks, the count last; exit status 1 if any
function reportFailures() {
    for (const n of failureNotes) process.stderr.write("FAIL " + n + "\n");
    process.stderr.write(`failures: ${failures}\n`);
    if (failures !== 0) process.exitCode = 1;
}

// main.js bulkRun(runSeed, size, modern) itself: its own expert games from its own RNG,
// to compare with the results its author noted in main.js (e.g. bulkRun(321, 10000, false)).
async function mainBulk() {
    await runIn("solver()");
    const cpu0 = process.cpuUsage();
    const rng = runIn(`JSF(${bulk.seed})`);
    const startIndex = bulk.modern ? 93 : 0;
    const gameType = bulk.modern ? "zero" : "safe";
    let played = 0, won = 0;
    while (played < bulk.size) {
        played++;
        const gameSeed = Math.round(rng() * Number.MAX_SAFE_INTEGER);
        currentCheck = null;
        const result = await context.__playGame(30, 16, 99, startIndex, gameType, null, gameSeed);
        currentCheck = { index: played, width: 30, height: 16, mineSet: new Set(result.mines) };
        if (checkGame(currentCheck, result)) won++;
        if (!quiet && played % 100 === 0) {
            process.stderr.write(`${played} games, ${won} won, ${cpuSeconds(cpu0).toFixed(1)} s CPU\n`);
        }
    }
    process.stderr.write(`bulkRun(${bulk.seed}, ${bulk.size}, ${bulk.modern}): won ${won}/${played}, CPU ${cpuSeconds(cpu0).toFixed(1)} s\n`);
    reportFailures();
}

(bulk !== null ? mainBulk() : main()).catch(e => { console.error(e); process.exit(1); });
