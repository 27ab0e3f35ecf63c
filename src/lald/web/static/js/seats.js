// The seats this browser has taken and not finished, kept in its local storage (the front
// page offers the way back to them). A seat's token is its secret link: it is kept here
// and put in the link back, and never sent anywhere but its own table.
const KEY = "lald-seats";
const MOST = 20;

const valid = (e) => e && typeof e.token === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(e.token)
  && typeof e.table === "string" && /^[A-Za-z0-9_-]{1,32}$/.test(e.table);

// The seats remembered, the latest first: {token, table, seat, title, rules, at}.
export function mySeats() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter(valid) : [];
  } catch {
    return [];  // storage refused or spoiled: nothing remembered
  }
}

function save(list) {
  try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, MOST))); } catch { /* storage refused */ }
}

export function rememberSeat(entry) {
  if (!valid(entry)) return;
  const before = mySeats().find((e) => e.token === entry.token);
  const next = { ...entry, at: before && sameSeat(before, entry) ? before.at : Date.now() };
  if (before && JSON.stringify(before) === JSON.stringify(next)) return;
  save([next, ...mySeats().filter((e) => e.token !== entry.token)]);
}

const sameSeat = (a, b) => a.table === b.table && a.seat === b.seat;

export function forgetSeat(token) {
  const list = mySeats();
  if (list.some((e) => e.token === token)) save(list.filter((e) => e.token !== token));
}

// The remembered seat at a table, if any.
export const seatAt = (table) => mySeats().find((e) => e.table === table) || null;
