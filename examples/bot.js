#!/usr/bin/env node
// A lald-bot/1 program (docs/bot-protocol.md): takes the capture that wins most cards,
// claims whatever it is offered, and lies down or trails only when it must.
const rl = require("readline").createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type !== "act" && msg.type !== "claim") return; // "deal" and "end" need no answer
  const size = (a) => (a.type === "capture" ? a.play.length + a.take.length : a.type === "claim" ? a.cards.length : 0);
  let best = 0;
  msg.legal.forEach((a, i) => { if (size(a) > size(msg.legal[best])) best = i; });
  console.log(JSON.stringify(best)); // the index of the chosen action
});
